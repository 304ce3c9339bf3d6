package mcpclient

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The list changes a session listens for are those the server declared
// listChanged for: none declared, no subscriptions/listen at all (until a
// resource is subscribed).
func TestListenAsksOnlyForDeclaredLists(t *testing.T) {
	for _, tc := range []struct {
		name, caps string
		want       map[string]any // the filter, nil for no listen request
	}{
		{"none declared", `{"tools":{},"prompts":{},"resources":{"subscribe":true}}`, nil},
		{"tools only", `{"tools":{"listChanged":true},"prompts":{}}`, map[string]any{"toolsListChanged": true}},
		{"all three", `{"tools":{"listChanged":true},"prompts":{"listChanged":true},"resources":{"listChanged":true}}`,
			map[string]any{"toolsListChanged": true, "promptsListChanged": true, "resourcesListChanged": true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakemcp.New(t)
			f.Result("server/discover", `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":`+tc.caps+`}`)
			f.Result("tools/list", `{"resultType":"complete","tools":[]}`)
			listening := make(chan map[string]any, 4)
			f.Handle("subscriptions/listen", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
				var p struct {
					Notifications map[string]any `json:"notifications"`
				}
				json.Unmarshal(r.Params, &p)
				listening <- p.Notifications
				f.Conn.Notify(ctx, "notifications/subscriptions/acknowledged", map[string]any{"notifications": p.Notifications})
				<-ctx.Done()
				return nil, ctx.Err()
			})
			s := connect(t, f, &Options{OnListChanged: func(string) {}})
			if tc.want != nil {
				if diff := cmp.Diff(tc.want, <-listening); diff != "" {
					t.Errorf("filter (-want +got):\n%s", diff)
				}
				return
			}
			// Nothing declared: a round trip later, still no listen request;
			// a subscription opens one with the resource alone.
			if _, err := s.listTools(ctx5s(t), ""); err != nil {
				t.Fatal(err)
			}
			if n := f.Count("subscriptions/listen"); n != 0 {
				t.Fatalf("%d subscriptions/listen requests to a server that declared no listChanged", n)
			}
			if err := s.Subscribe(ctx5s(t), "file:///a"); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(map[string]any{"resourceSubscriptions": []any{"file:///a"}}, <-listening); diff != "" {
				t.Errorf("filter after Subscribe (-want +got):\n%s", diff)
			}
		})
	}
}
