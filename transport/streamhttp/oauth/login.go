package oauth

import (
	"context"
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/safeurl"
)

// LoginOptions are the choices of one [Authorizer.Login]. A nil
// *LoginOptions means the defaults.
type LoginOptions struct {
	// UserStep and RedirectURL are the user step and its redirect for
	// this login; unset, Config's.
	UserStep    UserStep
	RedirectURL string
	// Scopes are asked for besides those of the server's last challenge
	// and of the current token (a step-up the host asks for).
	Scopes []string
	// Force authorizes anew even when the stored token still works.
	Force bool
}

// Login authorizes now, outside any request: a host calls it when the
// user asks to log in, or when a server it could not reach without the
// user should be authorized. Unless opts.Force, a stored token that has
// not expired is kept, and one that can be refreshed is refreshed. The
// authorization runs under Config.UserStepTimeout; ctx bounds only the
// caller's wait. A login while a renewal is under way joins it instead
// of starting a second flow; one that joined a renewal that found no
// user, and has a user step itself, then runs its own.
//
// The flow starts from the server's last challenge, if a request met
// one, else from its well-known metadata.
func (a *Authorizer) Login(ctx context.Context, opts *LoginOptions) error {
	if opts == nil {
		opts = &LoginOptions{}
	}
	if opts.RedirectURL != "" {
		if _, err := safeurl.Parse("LoginOptions.RedirectURL", opts.RedirectURL); err != nil {
			return fmt.Errorf("oauth: %w", err)
		}
	}
	b := &budget{refresh: !opts.Force}
	tok, gen, err := a.current(ctx, b)
	if err != nil {
		return err
	}
	if !opts.Force && len(opts.Scopes) == 0 && tok != nil && !tok.expiresWithin(0) {
		return nil
	}
	a.mu.Lock()
	ch := a.challenge
	a.mu.Unlock()
	rn := renewal{gen: gen, sent: tok, ch: ch, refresh: b.refresh && len(opts.Scopes) == 0, authorize: true,
		stepUp: len(opts.Scopes) > 0 || ch.Params["error"] == "insufficient_scope", force: opts.Force || len(opts.Scopes) > 0, login: opts}
	out := a.renew(ctx, rn)
	if errors.Is(out.err, ErrNoUser) && (opts.UserStep != nil || a.cfg.UserStep != nil) {
		out = a.renew(ctx, rn) // it joined a renewal that had no user
	}
	return out.err
}

// AuthServer is the origin of the authorization server's authorization
// endpoint, once a renewal has discovered it; empty before. Hosts name it
// when they tell the user a server needs authorization.
func (a *Authorizer) AuthServer() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.authServer
}

// StepUpScope reports whether the server's last refusal was a 403
// insufficient_scope challenge (which, with no user step, came back as
// it was), and the scope it named: a host that can reach the user then
// calls Login, which asks for that scope and the token's together. A
// scope longer than any authorization would ask for is none to offer.
func (a *Authorizer) StepUpScope() (scope string, ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	scope = a.challenge.Params["scope"]
	if a.challenge.Params["error"] != "insufficient_scope" || checkScope(scope) != nil {
		return "", false
	}
	return scope, true
}
