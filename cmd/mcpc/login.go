package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/plainmcp/plainmcp/internal/safeurl"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// tokenFile is where mcpc keeps OAuth tokens, by server URL: in
// plainmcp's directory under the user's config directory.
func tokenFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "plainmcp", "tokens.json"), nil
}

// tokenStore is the token file's store, or nil (tokens in memory for the
// run) where there is no config directory.
func tokenStore() *oauth.FileStore {
	path, err := tokenFile()
	if err != nil {
		return nil
	}
	return &oauth.FileStore{Path: path}
}

// openBrowser opens u in the user's browser, where the system has a
// known opener; it never goes through a shell. It hands the opener only
// an https URL, or http on a loopback host: the authorization server, and
// with it this URL, is chosen by the MCP server, and a javascript:,
// file: or custom-scheme URL given to the system's opener would run
// something on the user's machine. The oauth package checks it first;
// this is the check at the point where it leaves. Tests replace it.
var openBrowser = func(u string) error {
	if _, err := safeurl.Parse("the URL to open", u); err != nil {
		return err
	}
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", u)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
	default:
		cmd = exec.Command("xdg-open", u)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

// httpServer returns the named selected server, which must be an http or
// sse one.
func (e *env) httpServer(name string) (*toolreg.ServerConfig, error) {
	sc := e.conf.Server(name)
	if sc == nil {
		return nil, configf("no server %q among those selected (%s)", name, strings.Join(serverNames(e.conf), ", "))
	}
	if sc.Type != "http" && sc.Type != "sse" {
		return nil, fmt.Errorf("server %q is a %s server; only http and sse servers log in", name, sc.Type)
	}
	return sc, nil
}

// cmdLogin runs the OAuth flow of an http server in the browser: a
// loopback listener takes the redirect (or the user pastes it), and the
// tokens go to the token file, where the other commands find them. A
// stored token that works is kept unless --force; --scope asks for more.
func cmdLogin(ctx context.Context, e *env, args []string) error {
	sc, err := e.httpServer(args[0])
	if err != nil {
		return err
	}
	if e.dialer.TokenStore == nil {
		return errors.New("no user config directory to keep the tokens in")
	}
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	opts := &oauth.LoginOptions{Force: e.cfg.force, Scopes: strings.Fields(e.cfg.scope)}
	if err := e.login(ctx, reg, sc, opts, nil); err != nil {
		return err
	}
	return e.out.print(map[string]any{"server": sc.Name, "loggedIn": true}, func(w io.Writer) {
		fmt.Fprintf(w, "logged in to %s\n", sc.Name)
	})
}

// login runs opts's login of sc with mcpc's loopback user step: at the
// terminal, or with show given, through what show does with the
// authorization URL (mcpc web's page).
func (e *env) login(ctx context.Context, reg *toolreg.Registry, sc *toolreg.ServerConfig, opts *oauth.LoginOptions, show func(string) error) error {
	stdin := e.stdin
	if show != nil {
		stdin = nil // the page's person answers in their browser, not here
	}
	var step *loopbackStep
	var err error
	if sc.OAuth != nil && sc.OAuth.CallbackPort > 0 {
		step, err = newLoopbackStep(sc.Name, sc.OAuth.CallbackPort, stdin, e.stderr)
	} else {
		step, err = e.reusedPortStep(ctx, sc.Name, stdin)
	}
	if err != nil {
		return err
	}
	defer step.Close()
	step.show = show
	opts.UserStep, opts.RedirectURL = step, step.redirectURL()
	err = e.dialer.Login(ctx, reg, sc, opts)
	var denied *oauth.AuthorizationError
	if errors.As(err, &denied) {
		msg := fmt.Sprintf("the authorization server refused to authorize mcpc at %s (%s)", sc.Name, denied.Code)
		if denied.Code == "access_denied" {
			msg = fmt.Sprintf("access to %s was denied at the authorization server", sc.Name)
		}
		if denied.Description != "" {
			msg += ": " + denied.Description
		}
		return errors.New(msg)
	}
	return err
}

// cmdLogout forgets the tokens of an http server, revoking them first
// (RFC 7009) where the authorization server offers it.
func cmdLogout(ctx context.Context, e *env, args []string) error {
	sc, err := e.httpServer(args[0])
	if err != nil {
		return err
	}
	out, err := e.logout(ctx, sc)
	if err != nil {
		return err
	}
	if out.revokeErr != nil {
		fmt.Fprintf(e.stderr, "mcpc: revoking the tokens of %s: %v (they are forgotten all the same)\n", sc.Name, out.revokeErr)
	}
	return e.out.print(map[string]any{"server": sc.Name, "hadTokens": out.hadTokens, "revoked": out.revoked}, func(w io.Writer) {
		switch {
		case out.hadTokens && out.revoked:
			fmt.Fprintf(w, "logged out of %s (tokens revoked)\n", sc.Name)
		case out.hadTokens:
			fmt.Fprintf(w, "logged out of %s\n", sc.Name)
		default:
			fmt.Fprintf(w, "no stored tokens for %s\n", sc.Name)
		}
	})
}

// loggedOut is what a logout did.
type loggedOut struct {
	hadTokens bool  // the token file held tokens of the server's
	revoked   bool  // its authorization server revoked them
	revokeErr error // why revoking them failed; they are forgotten all the same
}

// logout revokes sc's stored tokens (RFC 7009) where its authorization
// server offers a revocation endpoint, best effort, and deletes them from
// the token file: mcpc logout's, and mcpc web's Log out. A session still
// open on sc holds no copy that outlives it: its next connection reads
// the file (see oauth.Authorizer.RoundTripper).
func (e *env) logout(ctx context.Context, sc *toolreg.ServerConfig) (loggedOut, error) {
	store, ok := e.dialer.TokenStore.(*oauth.FileStore)
	if !ok || store == nil {
		return loggedOut{}, errors.New("no token file")
	}
	// As the holder of the server's key in the token file: a refresh in
	// flight (in this process or another) saves its new tokens first, and
	// those are the ones revoked and forgotten. Without it, the old ones
	// were revoked and the new ones deleted unrevoked.
	ctx, unlock, err := store.Lock(ctx, sc.URL)
	if err != nil {
		return loggedOut{}, err
	}
	defer unlock()
	tok, err := store.Load(ctx, sc.URL)
	if err != nil {
		return loggedOut{}, err
	}
	var out loggedOut
	if tok != nil && tok.RevocationEndpoint != "" {
		out.revokeErr = oauth.Revoke(ctx, nil, tok)
		out.revoked = out.revokeErr == nil
	}
	if out.hadTokens, err = store.Delete(ctx, sc.URL); err != nil {
		return out, err
	}
	return out, nil
}

// reusedPortStep listens where the newest client mcpc registered expects
// its redirect, so that the authorization server's registration is
// reused rather than one made per login (servers limit them); on a free
// port when there is none, or that port is taken.
func (e *env) reusedPortStep(ctx context.Context, name string, stdin io.Reader) (*loopbackStep, error) {
	if store, ok := e.dialer.TokenStore.(*oauth.FileStore); ok && store != nil {
		urls, _ := store.RedirectURLs(ctx)
		for _, r := range urls {
			u, err := url.Parse(r)
			if err != nil || u.Hostname() != "127.0.0.1" || u.Path != "/callback" {
				continue
			}
			if port, err := strconv.Atoi(u.Port()); err == nil && port > 0 {
				if step, err := newLoopbackStep(name, port, stdin, e.stderr); err == nil {
					return step, nil
				}
			}
			break
		}
	}
	return newLoopbackStep(name, 0, stdin, e.stderr)
}

// stepUp answers a call to server that failed with 403
// insufficient_scope: at a terminal it logs in again for the scope the
// server named (with the token's, in the browser) and says to call again;
// elsewhere it returns the error with the command that would do it.
func (e *env) stepUp(ctx context.Context, reg *toolreg.Registry, server string, err error) (again bool, _ error) {
	sc, scope, ok := e.stepUpScope(server, err)
	if !ok {
		return false, nil
	}
	if !e.interactive {
		line := fmt.Sprintf("%v\nthe server %s needs more scope (%s) for this: run: mcpc login --scope %q %s", err, sc.Name, scope, scope, sc.Name)
		return false, &lineError{line: line, errs: []error{err, errNeedsLogin}}
	}
	fmt.Fprintf(e.stderr, "mcpc: %s needs more scope (%s); authorizing again\n", sc.Name, scope)
	if err := e.login(ctx, reg, sc, &oauth.LoginOptions{Scopes: strings.Fields(scope)}, nil); err != nil {
		return false, err
	}
	return true, nil
}

// stepUpScope reports whether err, a call's failure at server, is a 403
// insufficient_scope that a login for more scope may answer, and the
// scope the server named. Only the failed call's server is weighed:
// another's last refusal may have asked for more scope, and a 403 from
// this one does not send the person to log in there.
func (e *env) stepUpScope(server string, err error) (_ *toolreg.ServerConfig, scope string, ok bool) {
	var he *streamhttp.HTTPError
	if e.dialer == nil || !errors.As(err, &he) || he.StatusCode != http.StatusForbidden {
		return nil, "", false
	}
	sc := e.conf.Server(server)
	if sc == nil {
		return nil, "", false
	}
	scope, ok = e.dialer.StepUpScope(sc)
	return sc, scope, ok
}
