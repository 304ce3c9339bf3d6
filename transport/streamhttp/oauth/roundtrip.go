package oauth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// RoundTripper wraps next, the round-tripper to the MCP server, for
// streamhttp's Config.Authorize: it sends the current token, refreshes it
// shortly before it expires, and on a 401 refreshes or authorizes anew
// and sends the request once more. A 403 whose challenge says
// insufficient_scope authorizes anew for the scopes granted so far plus
// the challenge's (step-up).
//
// Each request spends at most one refresh, one authorization after a 401
// and one step-up after a 403; past that, the 401 or 403 is returned as it
// came, so a server that refuses every token cannot loop the client. A
// request that meets a renewal another request started waits for it
// under its own context and spends what that renewal did. Without a user
// step, a server that needs the user gets its 401 back as it came, and no
// client is registered for it.
//
// Each call starts from the store: the first request through the
// round-tripper it returns (a new connection's) reads the stored token
// again, so a token deleted from the store (a logout, in this process or
// another) is not sent on a new connection, and one another process
// refreshed meanwhile is.
func (a *Authorizer) RoundTripper(next http.RoundTripper) http.RoundTripper {
	a.mu.Lock()
	a.loaded = false
	a.mu.Unlock()
	return &roundTripper{a: a, next: next}
}

type roundTripper struct {
	a    *Authorizer
	next http.RoundTripper
}

// budget is what one request may still spend on renewals.
type budget struct{ refresh, authorize, stepUp bool }

func fullBudget() *budget { return &budget{refresh: true, authorize: true, stepUp: true} }

// spend marks what a renewal did as spent.
func (b *budget) spend(o outcome) {
	b.refresh = b.refresh && !o.refreshed
	if o.authorized {
		b.authorize = false
	}
}

// maxRounds bounds the requests one RoundTrip sends, whatever the server
// answers and however the renewals of other requests turn out.
const maxRounds = 6

func (t *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if !sameOrigin(req.URL, t.a.server) {
		return t.next.RoundTrip(req) // tokens go to the server only
	}
	b := fullBudget()
	tok, gen, err := t.a.current(req.Context(), b)
	if err != nil {
		return nil, err
	}
	retriedNonce := false
	for round := 1; ; round++ {
		resp, err := t.send(req, tok)
		if err != nil || !refused(resp) || !rewindable(req) || round >= maxRounds {
			return resp, err // an answer, or no way or reason to ask again
		}
		ch, spokeDPoP, wantsNonce := challengeOf(resp, tok)
		t.a.noteChallenge(ch, spokeDPoP)
		if wantsNonce && !retriedNonce {
			// RFC 9449 section 9: send it again with the nonce.
			retriedNonce = true
			discard(resp)
		} else if tok, gen, resp, err = t.after(req.Context(), b, resp, ch, tok, gen); resp != nil || err != nil {
			return resp, err
		}
		if req, err = rewind(req); err != nil {
			return nil, err
		}
	}
}

// send sends req with tok, keeping the server's DPoP nonce.
func (t *roundTripper) send(req *http.Request, tok *Token) (*http.Response, error) {
	r, err := t.a.withToken(req, tok)
	if err != nil {
		return nil, err
	}
	resp, err := t.next.RoundTrip(r)
	if err == nil && tok != nil && tok.Type == "DPoP" {
		if n := resp.Header.Get("DPoP-Nonce"); n != "" {
			t.a.mu.Lock()
			t.a.rsNonce = n
			t.a.mu.Unlock()
		}
	}
	return resp, err
}

// refused reports whether the server refused the request's token.
func refused(resp *http.Response) bool {
	return resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden
}

// rewindable reports whether req's body can be sent again.
func rewindable(req *http.Request) bool {
	return req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
}

// challengeOf is the challenge of resp, Bearer else DPoP; whether the
// server spoke DPoP; and whether it asks for tok to be sent again with
// the DPoP nonce resp gave.
func challengeOf(resp *http.Response, tok *Token) (ch authChallenge, dpop, nonce bool) {
	cs, _ := parseChallenges(resp.Header.Values("WWW-Authenticate"))
	ch, _ = bearerChallenge(cs)
	d, dpop := schemeChallenge(cs, "DPoP")
	if dpop && d.Params["error"] == "use_dpop_nonce" && tok != nil && tok.Type == "DPoP" && resp.Header.Get("DPoP-Nonce") != "" {
		return d, true, true
	}
	if dpop && ch.Scheme == "" {
		ch = d
	}
	return ch, dpop, false
}

// after is what a request does once the server refused tok with resp and
// challenge ch: a new token to send (resp nil), or resp or an error to
// return, when its budget is spent or the renewal failed.
func (t *roundTripper) after(ctx context.Context, b *budget, resp *http.Response, ch authChallenge, tok *Token, gen uint64) (*Token, uint64, *http.Response, error) {
	rn, ok := b.next(resp.StatusCode, ch, tok, gen)
	if !ok {
		return nil, 0, resp, nil
	}
	resp = keep(resp)
	out := t.a.renew(ctx, rn)
	if errors.Is(out.err, ErrNoUser) || errors.Is(out.err, errNoRenewal) {
		return nil, 0, resp, nil // the server's own answer: it needs authorization
	}
	resp.Body.Close()
	if out.err != nil {
		return nil, 0, nil, out.err
	}
	b.spend(out)
	if rn.stepUp {
		b.stepUp = false
	}
	return out.tok, out.gen, nil, nil
}

// next is the renewal a request may ask for after the server answered
// status with challenge ch to tok (of generation gen), if any is left.
func (b *budget) next(status int, ch authChallenge, tok *Token, gen uint64) (renewal, bool) {
	rn := renewal{gen: gen, sent: tok, ch: ch}
	if status == http.StatusForbidden {
		if ch.Params["error"] != "insufficient_scope" || !b.stepUp {
			return rn, false
		}
		rn.authorize, rn.stepUp = true, true
		return rn, true
	}
	rn.refresh, rn.authorize = b.refresh, b.authorize
	return rn, rn.refresh || rn.authorize
}

// keep reads up to 64 KiB of resp's body into memory, so that resp can
// still be returned as it came after its connection is freed.
func keep(resp *http.Response) *http.Response {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp
}

// discard drains and closes resp's body, so that its connection is
// reused.
func discard(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// rewind is a copy of req to send again, with a fresh body.
func rewind(req *http.Request) (*http.Request, error) {
	r := req.Clone(req.Context())
	if r.GetBody != nil {
		var err error
		if r.Body, err = r.GetBody(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// noteChallenge remembers the server's last challenge, for a Login that
// comes later, and whether it spoke DPoP.
func (a *Authorizer) noteChallenge(ch authChallenge, dpop bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.challenge = ch
	a.rsDPoP = a.rsDPoP || dpop
}

// withToken is req with tok: a bearer token, or a DPoP-bound token with
// a fresh proof for this request (RFC 9449 section 7.1).
func (a *Authorizer) withToken(req *http.Request, tok *Token) (*http.Request, error) {
	if tok == nil {
		return req, nil
	}
	r := req.Clone(req.Context())
	if tok.Type != "DPoP" {
		r.Header.Set("Authorization", "Bearer "+tok.AccessToken.Reveal())
		return r, nil
	}
	a.mu.Lock()
	nonce := a.rsNonce
	a.mu.Unlock()
	p, err := proof(tok.DPoPKey.Reveal(), r.Method, r.URL, tok.AccessToken.Reveal(), nonce)
	if err != nil {
		return nil, err
	}
	r.Header.Set("Authorization", "DPoP "+tok.AccessToken.Reveal())
	r.Header.Set("DPoP", p)
	return r, nil
}

// current is the token to send (nil if none yet), refreshed first when it
// is about to expire, and its generation.
func (a *Authorizer) current(ctx context.Context, b *budget) (*Token, uint64, error) {
	a.mu.Lock()
	if !a.loaded {
		tok, err := a.store.Load(ctx, a.cfg.ServerURL)
		if err != nil {
			a.mu.Unlock()
			return nil, 0, fmt.Errorf("oauth: loading the stored token: %w", err)
		}
		a.loaded = true
		if !sameToken(a.tok, tok) {
			a.tok = tok
			a.gen++
			if g := tok.grant(); g != nil {
				a.grant = g // a stored token of an earlier run can be refreshed
			}
		}
	}
	tok, gen := a.tok, a.gen
	a.mu.Unlock()
	if tok == nil || tok.RefreshToken.IsZero() || !tok.expiresWithin(refreshMargin) || !b.refresh {
		return tok, gen, nil
	}
	out := a.renew(ctx, renewal{gen: gen, sent: tok, refresh: true})
	b.spend(out)
	if out.err != nil {
		if ctx.Err() != nil {
			return nil, 0, out.err
		}
		return tok, gen, nil // a 401 will start a new authorization
	}
	return out.tok, out.gen, nil
}
