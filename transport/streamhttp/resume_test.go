package streamhttp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// A server that asks for a day's wait before a broken request stream is
// resumed (retry:) is resumed after maxListenRetry: the server names the
// wait, the client bounds it.
func TestResumeWaitIsBounded(t *testing.T) {
	checkLeaks(t)
	inBubble(t, func(t *testing.T) {
		f := newMemMCPHTTP(t)
		var pending *jsonrpc.Message
		f.answer = func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
			if m.Method == "initialize" {
				w.Header().Set("Mcp-Session-Id", "s")
				jsonAnswer(w, m, `{}`)
				return
			}
			f.mu.Lock()
			pending = m
			f.mu.Unlock()
			sseHeader(w)
			fmt.Fprintf(w, "id: ev-1\nretry: %d\ndata: \n\n", (24 * time.Hour).Milliseconds()) // then the stream ends
		}
		f.get = func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Last-Event-ID") == "" {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			f.mu.Lock()
			m := pending
			f.mu.Unlock()
			sseHeader(w)
			sseEvent(w, "ev-2", string(jsonrpc.AppendResult(nil, m.ID, json.RawMessage(`"resumed"`))))
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
		if waited := time.Since(start); waited != maxListenRetry {
			t.Errorf("resumed after %v, want the bound %v", waited, maxListenRetry)
		}
	})
}
