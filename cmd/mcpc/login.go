package main

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport/streamhttp/oauth"
)

// loginWait bounds how long login waits for the browser's redirect.
const loginWait = 5 * time.Minute

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
	if _, err := safe.ParseURL("the URL to open", u); err != nil {
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
		return nil, fmt.Errorf("no server %q among those selected (%s)", name, strings.Join(serverNames(e.conf), ", "))
	}
	if sc.Type != "http" && sc.Type != "sse" {
		return nil, fmt.Errorf("server %q is a %s server; only http and sse servers log in", name, sc.Type)
	}
	return sc, nil
}

// cmdLogin runs the OAuth flow of an http server in the browser: a
// loopback listener takes the redirect, and the tokens go to the token
// file, where the other commands find them.
func cmdLogin(ctx context.Context, e *env, args []string) error {
	sc, err := e.httpServer(args[0])
	if err != nil {
		return err
	}
	if e.dialer.TokenStore == nil {
		return errors.New("no user config directory to keep the tokens in")
	}
	port := 0
	if sc.OAuth != nil {
		port = sc.OAuth.CallbackPort
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("listening for the redirect: %w", err)
	}
	redirectURL := "http://" + ln.Addr().String() + "/callback"
	got := make(chan *url.URL, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		u := *r.URL
		u.Scheme, u.Host = "http", ln.Addr().String()
		select {
		case got <- &u:
			fmt.Fprintf(w, "<!doctype html><p>mcpc: authorization of %s received; you may close this window.</p>", html.EscapeString(sc.Name))
		default:
			http.Error(w, "already received", http.StatusConflict)
		}
	})}
	go srv.Serve(ln)
	defer srv.Close()

	step := oauth.UserStepFunc(func(ctx context.Context, authURL *url.URL) (*url.URL, error) {
		fmt.Fprintf(e.stderr, "Open this URL to authorize mcpc at %s:\n  %s\n", sc.Name, authURL)
		if err := openBrowser(authURL.String()); err != nil {
			fmt.Fprintf(e.stderr, "(could not open a browser: %v)\n", err)
		}
		t := time.NewTimer(loginWait)
		defer t.Stop()
		select {
		case u := <-got:
			return u, nil
		case <-t.C:
			return nil, fmt.Errorf("no redirect came within %v", loginWait)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	// The flow may take the user minutes: the startup timeout does not
	// bound it, the wait above does.
	if err := e.dialer.Authorize(ctx, reg, sc, step, redirectURL); err != nil {
		return err
	}
	return e.out.print(map[string]any{"server": sc.Name, "loggedIn": true}, func(w io.Writer) {
		fmt.Fprintf(w, "logged in to %s\n", sc.Name)
	})
}

// cmdLogout forgets the tokens of an http server.
func cmdLogout(ctx context.Context, e *env, args []string) error {
	sc, err := e.httpServer(args[0])
	if err != nil {
		return err
	}
	store, ok := e.dialer.TokenStore.(*oauth.FileStore)
	if !ok || store == nil {
		return errors.New("no token file")
	}
	found, err := store.Delete(ctx, sc.URL)
	if err != nil {
		return err
	}
	return e.out.print(map[string]any{"server": sc.Name, "hadTokens": found}, func(w io.Writer) {
		if found {
			fmt.Fprintf(w, "logged out of %s\n", sc.Name)
		} else {
			fmt.Fprintf(w, "no stored tokens for %s\n", sc.Name)
		}
	})
}
