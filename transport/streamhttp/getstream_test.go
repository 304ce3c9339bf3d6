package streamhttp

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// The GET stream opened when a version is agreed: the initialized
// notification does not wait for it (the server here answers the GET only
// once that notification is in), and the session's next request does, so
// the stream is in place before the request is sent.
func TestHTTPFirstRequestWaitsForGETStream(t *testing.T) {
	checkLeaks(t)
	f := newMCPHTTP(t)
	notified := make(chan struct{})
	var getAnswered atomic.Bool
	f.answer = func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
		if m.Method == "tools/list" && !getAnswered.Load() {
			t.Error("tools/list was sent before the server answered the GET stream")
		}
		jsonAnswer(w, m, `{"tools":[]}`)
	}
	f.get = func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-notified:
		case <-r.Context().Done():
			return
		}
		sseHeader(w)
		getAnswered.Store(true)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	h, c := dialHTTP(t, f, Config{}, nil)
	h.SetProtocol(transport.Protocol{Version: "2025-11-25"})
	if getAnswered.Load() {
		t.Fatal("the GET was answered before the initialized notification")
	}
	if err := c.Notify(ctx5(t), "notifications/initialized", nil); err != nil {
		t.Fatal(err)
	}
	close(notified)
	if err := c.Call(ctx5(t), "tools/list", nil, nil); err != nil {
		t.Fatal(err)
	}
	if h.listenReady.Load() != nil {
		t.Error("the gate is still set after the GET stream answered")
	}
}
