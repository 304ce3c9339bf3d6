package task

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// Over Streamable HTTP, tasks/get, tasks/update and tasks/cancel MUST
// carry the task id in Mcp-Name (and the method in Mcp-Method), so that
// intermediaries route them to the instance holding the task.
func TestTaskRequestsNameTheTaskInHeaders(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]http.Header{}
	polls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		m, _ := rpcwire.Decode(body)
		mu.Lock()
		seen[m.Method] = r.Header.Clone()
		var result string
		switch m.Method {
		case "server/discover":
			result = discoverOK
		case "tools/call":
			result = created("t/42")
		case "tasks/get":
			if polls++; polls == 1 {
				result = polled("t/42", "input_required", `,"inputRequests":{"r":{"method":"roots/list"}}`)
			} else {
				result = polled("t/42", "completed", `,"result":{"content":[]}`)
			}
		default:
			result = `{"resultType":"complete"}`
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write(rpcwire.AppendResult(nil, m.ID, json.RawMessage(result)))
	}))
	defer srv.Close()
	stream, err := streamhttp.Dial(ctx5s(t), streamhttp.Config{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	s, err := mcpclient.Connect(ctx5s(t), stream, &mcpclient.Options{Tasks: fastTasks(), Roots: func(context.Context) ([]mcpclient.Root, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CallTool(ctx5s(t), "t", nil); err != nil {
		t.Fatal(err)
	}
	if err := Cancel(ctx5s(t), s, "t/42"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		if h := seen[method]; h == nil || h.Get("Mcp-Name") != "t/42" || h.Get("Mcp-Method") != method {
			t.Errorf("%s: headers %v", method, h)
		}
	}
}
