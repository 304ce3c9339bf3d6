package streamhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/transport"
)

// A request's event stream that breaks before its response is resumed
// with a GET that carries the last event id, after the wait the server
// asked for (retry:): no less than minRetry, no more than maxListenRetry
// (the server names the wait, the client bounds it), and defaultRetry
// when it named none.
func TestResumeWaitsForTheServersRetry(t *testing.T) {
	for _, tc := range []struct {
		name  string
		retry string // the retry: line, if any
		want  time.Duration
	}{
		{"as the server asks", "retry: 300\n", 300 * time.Millisecond},
		{"no less than minRetry", "retry: 0\n", minRetry},
		{"a day is too long", fmt.Sprintf("retry: %d\n", (24 * time.Hour).Milliseconds()), maxListenRetry},
		{"none named", "", defaultRetry},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			inBubble(t, func(t *testing.T) { resumeAfter(t, tc.retry, tc.want) })
		})
	}
}

func resumeAfter(t *testing.T, retryLine string, want time.Duration) {
	f := newMemMCPHTTP(t)
	var pending *rpcwire.Message
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		if m.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "s")
			jsonAnswer(w, m, `{}`)
			return
		}
		f.mu.Lock()
		pending = m
		f.mu.Unlock()
		sseHeader(w)
		fmt.Fprint(w, "id: ev-1\n"+retryLine+"data: \n\n") // then the stream ends
	}
	f.get = func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Last-Event-ID") == "" {
			w.WriteHeader(http.StatusMethodNotAllowed) // no standalone stream
			return
		}
		f.mu.Lock()
		m := pending
		f.mu.Unlock()
		sseHeader(w)
		sseEvent(w, "ev-2", string(rpcwire.AppendResult(nil, m.ID, json.RawMessage(`"resumed"`))))
	}
	h, c := dialMemHTTP(t, f, Config{}, nil)
	if err := c.Call(context.Background(), "initialize", nil, nil); err != nil {
		t.Fatal(err)
	}
	h.SetProtocol(transport.Protocol{Version: "2025-11-25"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	start := time.Now()
	var got string
	if err := c.Call(ctx, "tools/call", nil, &got); err != nil || got != "resumed" {
		t.Fatalf("call: %q %v", got, err)
	}
	if waited := time.Since(start); waited != want {
		t.Errorf("resumed after %v, want %v", waited, want)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if last := f.gets[len(f.gets)-1]; last.Header.Get("Last-Event-ID") != "ev-1" {
		t.Errorf("Last-Event-ID %q, want ev-1", last.Header.Get("Last-Event-ID"))
	}
}

// A long call whose server (or a proxy before it) cuts its event stream
// after every event is resumed as long as each stream moves on: the
// bound on resumes counts those in a row that carried no event, and a
// server that keeps sending none is still given up on.
func TestResumesThatMoveOnAreNotCounted(t *testing.T) {
	for _, tc := range []struct {
		name     string
		moves    bool // each resumed stream carries a new event
		wantLost bool
	}{
		{"each stream carries an event", true, false},
		{"no stream carries one", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			inBubble(t, func(t *testing.T) { resumeMany(t, tc.moves, tc.wantLost) })
		})
	}
}

func resumeMany(t *testing.T, moves, wantLost bool) {
	const events = 3 * maxResumes
	f := newMemMCPHTTP(t)
	var pending *rpcwire.Message
	f.answer = func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message) {
		if m.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "s")
			jsonAnswer(w, m, `{}`)
			return
		}
		f.mu.Lock()
		pending = m
		f.mu.Unlock()
		sseHeader(w)
		fmt.Fprint(w, "id: 0\ndata: \n\n") // then the stream ends
	}
	f.get = func(w http.ResponseWriter, r *http.Request) {
		last := r.Header.Get("Last-Event-ID")
		if last == "" {
			w.WriteHeader(http.StatusMethodNotAllowed) // no standalone stream
			return
		}
		f.mu.Lock()
		m := pending
		f.mu.Unlock()
		sseHeader(w)
		var n int
		fmt.Sscan(last, &n)
		switch {
		case !moves:
		case n < events:
			sseEvent(w, fmt.Sprint(n+1), `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`)
		default:
			sseEvent(w, fmt.Sprint(n+1), string(rpcwire.AppendResult(nil, m.ID, json.RawMessage(`"done"`))))
		}
	}
	h, c := dialMemHTTP(t, f, Config{}, nil)
	if err := c.Call(context.Background(), "initialize", nil, nil); err != nil {
		t.Fatal(err)
	}
	h.SetProtocol(transport.Protocol{Version: "2025-11-25"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	var got string
	err := c.Call(ctx, "tools/call", nil, &got)
	switch {
	case wantLost && !errors.Is(err, rpcwire.ErrResponseLost):
		t.Fatalf("call: %q %v, want the response lost", got, err)
	case !wantLost && (err != nil || got != "done"):
		t.Fatalf("call: %q %v, want done after %d resumes", got, err, events)
	}
}
