package bridge

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// payProvider is a model that calls mcp__fake__pay once, then says what
// the tool answered: "paid" or "failed".
func payProvider(t *testing.T, wire string) *httptest.Server {
	return scriptedProvider(t, wire, func(body string) (string, [][2]string) {
		switch {
		case strings.Contains(body, "receipt 42"):
			return "paid", nil
		case strings.Contains(body, "p1"):
			return "failed", nil
		}
		return "", [][2]string{{"p1", "mcp__fake__pay"}}
	})
}

// A call the server answers -32042 (a page to visit first) goes to the
// host's Retry, with the call and the pages, before the model hears of
// it; on yes it is made once more and the model reads the second answer;
// on no, or a panic, the model reads the failure.
func TestRetryAfterAPersonActs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		retry  func(context.Context, toolreg.Call, error) bool
		answer string
		calls  int64
	}{
		{"no hook", nil, "failed", 1},
		{"the host says yes", func(context.Context, toolreg.Call, error) bool { return true }, "paid", 2},
		{"the host says no", func(context.Context, toolreg.Call, error) bool { return false }, "failed", 1},
		{"the hook panics", func(context.Context, toolreg.Call, error) bool { panic("boom") }, "failed", 1},
	} {
		for _, wire := range []string{"openai", "anthropic"} {
			t.Run(tc.name+"/"+wire, func(t *testing.T) {
				var visited atomic.Bool
				reg, srv := newFakeServer(t, &toolreg.Options{},
					fakeTool{def: toolDef("pay", `{"readOnlyHint":true}`),
						call: func(context.Context, json.RawMessage) string { return textResult("receipt 42") },
						fail: func() error {
							if visited.Load() {
								return nil
							}
							return &jsonrpc.Error{Code: mcpclient.CodeURLElicitationRequired, Message: "visit the payment page first",
								Data: json.RawMessage(`{"elicitations":[{"mode":"url","elicitationId":"e1","url":"https://pay.example/e1","message":"Pay"}]}`)}
						}})
				var mu sync.Mutex
				var asked []toolreg.Call
				opts := &RunOptions{TrustAnnotations: trustAll}
				if tc.retry != nil {
					opts.Retry = func(ctx context.Context, c toolreg.Call, err error) bool {
						mu.Lock()
						asked = append(asked, c)
						mu.Unlock()
						if pages := mcpclient.URLElicitations(err); len(pages) != 1 || pages[0].URL != "https://pay.example/e1" {
							t.Errorf("Retry got %v, want the -32042 with its page", err)
						}
						visited.Store(true)
						return tc.retry(ctx, c, err)
					}
				}
				tr, err := Run(context.Background(), wireModel(wire, payProvider(t, wire).URL), reg, "Pay the bill.", opts)
				if err != nil {
					t.Fatal(err)
				}
				if tr.Answer != tc.answer {
					t.Errorf("the model said %q, want %q", tr.Answer, tc.answer)
				}
				if n := srv.calls.Load(); n != tc.calls {
					t.Errorf("the server got %d calls, want %d", n, tc.calls)
				}
				if tc.retry != nil && (len(asked) != 1 || asked[0].Server != "fake" || asked[0].Tool != "pay" || asked[0].Name != "mcp__fake__pay") {
					t.Errorf("Retry was asked about %+v, want the one call, its server and its names", asked)
				}
			})
		}
	}
}
