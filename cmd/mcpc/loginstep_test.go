package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// stepFor starts a loopback step with stdin and the browser replaced.
func stepFor(t *testing.T, stdin io.Reader, open func(string) error) *loopbackStep {
	t.Helper()
	old := openBrowser
	t.Cleanup(func() { openBrowser = old })
	openBrowser = open
	s, err := newLoopbackStep("web", 0, stdin, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// status loads u, as a browser would, and returns its status (0 when it
// failed, which fails the test). It may run on a goroutine of its own.
func status(t *testing.T, u string) int {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Error(err)
		return 0
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Errorf("%s: reading the page: %v", u, err)
	}
	return resp.StatusCode
}

// Requests to the callback without the flow's state — stray, forged,
// another path — get an error page and do not end the login; the one
// with the state does.
func TestLoopbackIgnoresStrayRequests(t *testing.T) {
	var s *loopbackStep
	browsed := make(chan struct{})
	s = stepFor(t, nil, func(string) error {
		go func() {
			defer close(browsed)
			base := s.redirectURL()
			for _, u := range []string{base, base + "?code=x&state=forged", s.redirectURL()[:len(base)-len("/callback")] + "/other?state=s1"} {
				if got := status(t, u); got == http.StatusOK {
					t.Errorf("%s: got 200, want an error page", u)
				}
			}
			if got := status(t, base+"?code=c&state=s1"); got != http.StatusOK {
				t.Errorf("the right redirect: got %d", got)
			}
		}()
		return nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := s.Authorize(ctx, &url.URL{Scheme: "https", Host: "as.example", Path: "/authorize", RawQuery: "state=s1"})
	if err != nil || got.Query().Get("code") != "c" {
		t.Fatalf("got %v %v, want the redirect with code c", got, err)
	}
	if got := status(t, s.redirectURL()+"?code=c2&state=s1"); got == http.StatusOK {
		t.Errorf("a second redirect with the state: got 200, want it ignored")
	}
	<-browsed // the browser has its pages before the test ends
}

// With no browser that reaches the loopback (SSH), the user pastes the
// address the browser was sent to; lines that are not it are skipped.
func TestLoopbackTakesAPastedRedirect(t *testing.T) {
	in := strings.NewReader("nonsense\nhttp://127.0.0.1:1/callback?code=x&state=other\nhttp://127.0.0.1:1/callback?code=c&state=s1\n")
	s := stepFor(t, in, func(string) error { return nil })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := s.Authorize(ctx, &url.URL{Scheme: "https", Host: "as.example", Path: "/authorize", RawQuery: "state=s1"})
	if err != nil || got.Query().Get("code") != "c" {
		t.Fatalf("got %v %v, want the pasted redirect", got, err)
	}
}

// The step ends with the flow's context, with its cause.
func TestLoopbackEndsWithTheFlow(t *testing.T) {
	s := stepFor(t, nil, func(string) error { return nil })
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(context.DeadlineExceeded)
	if _, err := s.Authorize(ctx, &url.URL{Scheme: "https", Host: "as.example", RawQuery: "state=s1"}); err != context.DeadlineExceeded {
		t.Fatalf("got %v, want the flow's cause", err)
	}
}

// A step closed while it waits for the redirect (its login gave up: mcpc
// web's page closing) ends the wait at once, though the flow's own
// context, which the oauth package keeps apart from the login's caller,
// has not ended: the flow then fails rather than holding the next login.
func TestLoopbackCloseEndsTheWait(t *testing.T) {
	s := stepFor(t, nil, func(string) error { return nil })
	got := make(chan error, 1)
	go func() {
		_, err := s.Authorize(context.Background(), &url.URL{Scheme: "https", Host: "as.example", Path: "/authorize", RawQuery: "state=s1"})
		got <- err
	}()
	s.Close()
	select {
	case err := <-got:
		if !errors.Is(err, errLoginEnded) {
			t.Errorf("got %v, want errLoginEnded", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Authorize waits on after Close")
	}
}

// On mcpc web's page, the step hands the authorization URL to the page
// and neither prints it nor opens a browser.
func TestLoopbackShowsThePage(t *testing.T) {
	s := stepFor(t, strings.NewReader(""), func(u string) error { t.Errorf("opened %s", u); return nil })
	var buf strings.Builder
	s.stderr = &buf
	shown := make(chan string, 1)
	s.show = func(u string) error { shown <- u; return nil }
	go func() {
		u := <-shown
		status(t, s.redirectURL()+"?code=c&"+u[strings.Index(u, "state="):])
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := s.Authorize(ctx, &url.URL{Scheme: "https", Host: "as.example", Path: "/authorize", RawQuery: "state=s1"})
	if err != nil || got.Query().Get("code") != "c" {
		t.Fatalf("got %v %v", got, err)
	}
	if buf.Len() != 0 {
		t.Errorf("the step wrote to the terminal: %q", buf.String())
	}
}
