package streamhttp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

func TestDialLegacyFailures(t *testing.T) {
	for _, tc := range []struct {
		name      string
		configure func(*legacyServer)
		want      []string
	}{
		{"404", func(s *legacyServer) {
			s.getFn = func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no SSE here", http.StatusNotFound) }
		}, []string{"404 Not Found", "no SSE here", "/sse"}},
		{"not an event stream", func(s *legacyServer) {
			s.getFn = func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, "{}")
			}
		}, []string{`"application/json"`, "want text/event-stream"}},
		{"stream ends before the endpoint", func(s *legacyServer) {
			s.getFn = func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
				io.WriteString(w, "event: message\ndata: {}\n\n")
			}
		}, []string{"waiting for the endpoint event", "ended"}},
		{"endpoint never arrives", func(s *legacyServer) {
			s.endpoint = ""
			s.prelude = ": waiting\n\n"
		}, []string{"waiting for the endpoint event", context.DeadlineExceeded.Error()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			srv := newLegacyServer(t, tc.configure)
			cfg := srv.config()
			cfg.URL += "?key=hidden"
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			_, err := dialLegacy(ctx, cfg)
			if err == nil {
				t.Fatal("dialLegacy succeeded")
			}
			for _, want := range append(tc.want, "streamhttp: ") {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("got %q, want it to mention %q", err, want)
				}
			}
			if strings.Contains(err.Error(), legacyToken) || strings.Contains(err.Error(), "hidden") {
				t.Errorf("the error reveals a secret: %v", err)
			}
		})
	}
}

func TestSSEStreamEnds(t *testing.T) {
	checkLeaks(t)
	srv := newLegacyServer(t, nil)
	sse := srv.dial(t, srv.config())
	srv.send(`{"last":true}`)
	close(srv.end)
	if frame, err := readWithin(t, sse, 5*time.Second); err != nil || string(frame) != `{"last":true}` {
		t.Fatalf("got %s, %v; want the last frame", frame, err)
	}
	_, err := readWithin(t, sse, 5*time.Second)
	if !errors.Is(err, io.EOF) || !strings.Contains(err.Error(), "event stream") {
		t.Errorf("got %v, want an error wrapping io.EOF about the event stream", err)
	}
}

func TestSSEStreamBreaks(t *testing.T) {
	checkLeaks(t)
	srv := newLegacyServer(t, func(s *legacyServer) {
		s.getFn = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: endpoint\ndata: /messages?sessionId=abc\n\n")
			w.(http.Flusher).Flush()
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Write([]byte("20\r\nevent: message\ndata: {\"cut\":")) // a chunk cut short
			conn.Close()
		}
	})
	sse := srv.dial(t, srv.config())
	_, err := readWithin(t, sse, 5*time.Second)
	if err == nil || errors.Is(err, io.EOF) || !strings.Contains(err.Error(), "broke") {
		t.Errorf("got %v, want an error saying the stream broke", err)
	}
}

func TestSSEEventTooLarge(t *testing.T) {
	srv := newLegacyServer(t, nil)
	cfg := srv.config()
	cfg.MaxMessage = 1 << 10
	sse := srv.dial(t, cfg)
	srv.send(`{"ok":"` + strings.Repeat("x", 1000) + `"}`)
	srv.send(`{"big":"` + strings.Repeat("x", 1100) + `"}`)
	if _, err := readWithin(t, sse, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := readWithin(t, sse, 5*time.Second); !errors.Is(err, ErrEventTooLarge) {
		t.Errorf("got %v, want ErrEventTooLarge", err)
	}
}

func TestSSEWriteFailures(t *testing.T) {
	checkLeaks(t)
	release := make(chan struct{})
	srv := newLegacyServer(t, func(s *legacyServer) {
		s.postFn = func(w http.ResponseWriter, r *http.Request) {
			if body, _ := io.ReadAll(r.Body); string(body) == `"slow"` {
				select {
				case <-release:
				case <-r.Context().Done():
				}
				return
			}
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, "internal trouble: "+strings.Repeat("z", 500))
		}
	})
	defer close(release)
	sse := srv.dial(t, srv.config())
	err := sse.Write(context.Background(), []byte(`{}`))
	if err == nil || !strings.Contains(err.Error(), "500 Internal Server Error") ||
		!strings.Contains(err.Error(), "internal trouble: zzz") || strings.Contains(err.Error(), strings.Repeat("z", 200)) {
		t.Errorf("got %v, want the status and at most 200 bytes of the body", err)
	}

	// A POST the server sits on: the caller's ctx and Close each end it.
	slow := []byte(`"slow"`)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := sse.Write(ctx, slow); err != context.DeadlineExceeded {
		t.Errorf("with a short ctx: got %v, want context.DeadlineExceeded", err)
	}
	sse = srv.dial(t, srv.config())
	time.AfterFunc(50*time.Millisecond, func() { sse.Close() })
	if err := sse.Write(context.Background(), slow); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("closed during Write: got %v, want ErrClosed", err)
	}
}

// A server that opens the event stream and never names its endpoint does
// not hold Dial past its own bound, even for a caller without a deadline.
func TestLegacyEndpointWaitIsBounded(t *testing.T) {
	checkLeaks(t)
	srv := newLegacyServer(t, func(s *legacyServer) { s.endpoint = "" })
	cfg := srv.config()
	cfg.Legacy, cfg.ConnectTimeout = true, 200*time.Millisecond
	start := time.Now()
	_, err := Dial(context.Background(), cfg)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the connect timeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Dial took %v", d)
	}
}

// The Content-Type an HTTP+SSE server answers with is quoted in the
// error within bounds, however long the header.
func TestDialLegacyQuotesContentTypeBriefly(t *testing.T) {
	checkLeaks(t)
	srv := newLegacyServer(t, func(s *legacyServer) {
		s.getFn = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-"+strings.Repeat("a", 200<<10))
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := dialLegacy(ctx, srv.config())
	if err == nil {
		t.Fatal("dialLegacy succeeded")
	}
	if msg := err.Error(); !strings.Contains(msg, "want text/event-stream") || len(msg) > 400 {
		t.Errorf("got an error of %d bytes, want one of at most 400 saying what was wanted", len(msg))
	}
}
