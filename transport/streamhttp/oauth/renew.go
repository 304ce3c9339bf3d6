package oauth

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/plainmcp/plainmcp/internal/logging"
)

// errNoRenewal: a renewal that was not to authorize found no refresh to
// make, or its refresh failed.
var errNoRenewal = errors.New("oauth: no token could be renewed without a new authorization")

// A renewal is what a request asks for after the server refused its
// token: a refresh, an authorization, or both in that order.
type renewal struct {
	gen       uint64        // the generation of the refused token
	sent      *Token        // the refused token; nil when none was sent
	ch        authChallenge // the server's challenge
	refresh   bool          // may refresh
	authorize bool          // may authorize anew
	stepUp    bool          // ch asks for more scope than sent has
	force     bool          // a login that replaces a token that works
	login     *LoginOptions
}

// outcome is what a renewal did and produced.
type outcome struct {
	tok        *Token
	gen        uint64
	refreshed  bool // a refresh was tried
	authorized bool // an authorization was tried
	err        error
}

// A flight is the one renewal under way, which later requests join.
type flight struct {
	done chan struct{}
	out  outcome
}

// renew gets a token to replace rn.sent: one another request obtained
// since, else the result of the renewal under way, else of a new one. The
// renewal runs apart from ctx, bounded by Config.UserStepTimeout, so that
// a caller that gives up (a probe's short timeout) does not end it and
// the next caller joins it rather than starting a second; ctx bounds only
// this caller's wait.
func (a *Authorizer) renew(ctx context.Context, rn renewal) outcome {
	a.mu.Lock()
	if a.gen != rn.gen && !rn.force && a.tok != nil {
		out := outcome{tok: a.tok, gen: a.gen}
		a.mu.Unlock()
		return out
	}
	fl := a.pending
	if fl == nil {
		fl = &flight{done: make(chan struct{})}
		a.pending = fl
		fctx, cancel := context.WithTimeoutCause(context.WithoutCancel(ctx), a.cfg.UserStepTimeout, ErrUserStepTimeout)
		go func() {
			defer cancel()
			out := a.renewNow(fctx, rn)
			if out.err != nil && errors.Is(context.Cause(fctx), ErrUserStepTimeout) {
				out.err = fmt.Errorf("%w: not within %v (the user step's limit, Config.UserStepTimeout)", ErrUserStepTimeout, a.cfg.UserStepTimeout)
			}
			a.mu.Lock()
			a.pending, fl.out = nil, out
			a.mu.Unlock()
			close(fl.done)
		}()
	}
	a.mu.Unlock()
	select {
	case <-fl.done:
		return fl.out
	case <-ctx.Done():
		return outcome{err: fmt.Errorf("oauth: waiting for the authorization of %s, which goes on: %w", quotedURL(a.cfg.ServerURL), context.Cause(ctx))}
	}
}

// refreshTimeout bounds a refresh, which runs with the token store locked.
const refreshTimeout = 20 * time.Second

// renewNow runs a renewal: the stored token if another run renewed it,
// else a refresh, else an authorization, as rn allows.
func (a *Authorizer) renewNow(ctx context.Context, rn renewal) outcome {
	lctx, unlock, err := a.lockStore(ctx)
	if err != nil {
		return outcome{err: err}
	}
	out, done := a.refreshLocked(lctx, rn)
	unlock()
	if done {
		return out
	}
	if !rn.authorize {
		out.err = errNoRenewal
		return out
	}
	if ll, ok := a.store.(loginLocker); ok {
		// One login with the user per server and store in this process:
		// an Authorizer that waited takes up the token the other stored.
		unlockLogin, err := ll.loginLock(ctx, a.cfg.ServerURL)
		if err != nil {
			out.err = err
			return out
		}
		defer unlockLogin()
		if st := a.reload(ctx); st != nil && !rn.force && !rn.stepUp && (rn.sent == nil || !st.AccessToken.Equal(rn.sent.AccessToken)) {
			out.tok, out.gen = st, a.take(st)
			return out
		}
	}
	a.mu.Lock()
	prev, ch := a.grant, rn.ch
	a.mu.Unlock()
	out.authorized = true
	tok, g, err := a.authorize(ctx, ch, prev, rn.stepUp, rn.login)
	if err != nil {
		out.err = fmt.Errorf("oauth: authorizing at %s: %w", quotedURL(a.cfg.ServerURL), err)
		return out
	}
	if lctx, unlock, err = a.lockStore(ctx); err != nil {
		out.err = err
		return out
	}
	defer unlock()
	out.tok, out.gen, out.err = a.set(lctx, tok, g)
	return out
}

// refreshLocked, with the store locked, takes up a token another run
// stored since rn.sent, or refreshes. done is true when out is final.
func (a *Authorizer) refreshLocked(ctx context.Context, rn renewal) (out outcome, done bool) {
	cur := rn.sent
	if !rn.force && !rn.stepUp {
		if cur != nil && a.forgotten(ctx, cur) {
			return outcome{}, false // refreshing it would store it again
		}
		if st := a.reload(ctx); st != nil && (cur == nil || !st.AccessToken.Equal(cur.AccessToken)) {
			if !st.expiresWithin(refreshMargin) {
				return outcome{tok: st, gen: a.take(st)}, true
			}
			cur = st // refresh the newest refresh token, never a rotated one
		}
	}
	g := a.refreshGrant(rn, cur)
	if g == nil {
		return outcome{}, false
	}
	rctx, cancel := context.WithTimeout(ctx, refreshTimeout)
	fresh, err := a.refresh(rctx, cur, g)
	cancel()
	if err == nil {
		tok, gen, err := a.set(ctx, fresh, g)
		return outcome{tok: tok, gen: gen, refreshed: true, err: err}, true
	}
	if logging.Usable(a.cfg.Logger) != nil {
		a.cfg.Logger.Warn("oauth: refreshing the token failed", "server", quotedURL(a.cfg.ServerURL), "err", err)
	}
	a.mu.Lock()
	a.deadRT = sha256.Sum256([]byte(cur.RefreshToken.Reveal()))
	a.mu.Unlock()
	// Another process may have rotated the token meanwhile.
	if st := a.reload(ctx); st != nil && !st.RefreshToken.Equal(cur.RefreshToken) && !st.AccessToken.Equal(cur.AccessToken) {
		return outcome{tok: st, gen: a.take(st), refreshed: true}, true
	}
	return outcome{refreshed: true}, false
}

// refreshGrant is the grant to refresh cur with, or nil when rn may not
// refresh, cur cannot be refreshed, or its refresh token was refused.
func (a *Authorizer) refreshGrant(rn renewal, cur *Token) *grant {
	if !rn.refresh || cur == nil || cur.RefreshToken.IsZero() {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if sha256.Sum256([]byte(cur.RefreshToken.Reveal())) == a.deadRT {
		return nil
	}
	if cur != rn.sent {
		if sg := cur.grant(); sg != nil {
			return sg
		}
	}
	return a.grant
}

// forgotten reports whether the store, read without error, holds no
// token for the server while this Authorizer holds cur: it was deleted
// (a logout, in this process or another), and cur is dropped. A token
// this Authorizer obtained was stored; only a deletion takes it out.
func (a *Authorizer) forgotten(ctx context.Context, cur *Token) bool {
	st, err := a.store.Load(ctx, a.cfg.ServerURL)
	if err != nil || st != nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if sameToken(a.tok, cur) {
		a.tok = nil
		a.gen++
	}
	return true
}

// reload is the token in the store now, or nil.
func (a *Authorizer) reload(ctx context.Context) *Token {
	st, err := a.store.Load(ctx, a.cfg.ServerURL)
	if err != nil || st == nil || st.AccessToken.IsZero() {
		return nil
	}
	return st
}

// take makes st, a token another run stored, the current one.
func (a *Authorizer) take(st *Token) uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.tok = st
	if g := st.grant(); g != nil {
		a.grant = g
	}
	a.gen++
	return a.gen
}

// set makes tok, noted with the grant it came from, the current token
// and stores it.
func (a *Authorizer) set(ctx context.Context, tok *Token, g *grant) (*Token, uint64, error) {
	tok = withOrigin(tok, g)
	a.mu.Lock()
	a.tok, a.grant = tok, g
	a.gen++
	gen := a.gen
	a.mu.Unlock()
	if err := a.store.Save(ctx, a.cfg.ServerURL, tok); err != nil {
		return tok, gen, fmt.Errorf("oauth: storing the token: %w", err)
	}
	return tok, gen, nil
}

// refresh trades tok's refresh token for a new token (RFC 6749 section
// 6). A server that issues no new refresh token leaves the old one valid.
func (a *Authorizer) refresh(ctx context.Context, tok *Token, g *grant) (*Token, error) {
	fresh, err := a.requestToken(ctx, g.meta.TokenEndpoint, g.client, url.Values{
		"grant_type":    {"refresh_token"},
		"refresh_token": {tok.RefreshToken.Reveal()},
		"resource":      {g.resource},
	}, g.dpopKey)
	if err != nil {
		return nil, err
	}
	if fresh.RefreshToken.IsZero() {
		fresh.RefreshToken = tok.RefreshToken
	}
	if fresh.Scope == "" {
		fresh.Scope = tok.Scope
	}
	return fresh, nil
}

// A Locker is a [TokenStore] that can hold one key for one renewal at a
// time, among every Authorizer that shares it (and, for [FileStore],
// every process): the Authorizer holds it while it reads the stored
// token, refreshes it and saves the result, so that two never refresh
// one refresh token. [MemoryStore] and [FileStore] are Lockers.
type Locker interface {
	// Lock waits, as long as ctx lets it, until key is free, and holds
	// it until unlock is called. Load and Save under the context it
	// returns run as the lock's holder.
	Lock(ctx context.Context, key string) (locked context.Context, unlock func(), err error)
}

// lockStore locks the server's key in the store, if the store can, and
// returns the context to use the store under.
func (a *Authorizer) lockStore(ctx context.Context) (context.Context, func(), error) {
	l, ok := a.store.(Locker)
	if !ok {
		return ctx, func() {}, nil
	}
	locked, unlock, err := l.Lock(ctx, a.cfg.ServerURL)
	if err != nil {
		return nil, nil, fmt.Errorf("oauth: locking the token store: %w", err)
	}
	return locked, unlock, nil
}
