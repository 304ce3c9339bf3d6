package mcpclient

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// Skills are resources: a stateless server's resources/list_changed
// drops the cached skills/list pages (read through ListPage, as package
// mcpclient/skill reads them) with the resources' own, so a host that
// lists again after the notice sees the new skills; tools/list_changed
// leaves them cached.
func TestResourcesListChangedForgetsCachedSkills(t *testing.T) {
	f := modernServer(t)
	f.Result("skills/list", `{"skills":[],"ttlMs":60000}`)
	changed := make(chan string, 2)
	s := connect(t, f, &Options{OnListChanged: func(kind string) { changed <- kind }})
	list := func() {
		t.Helper()
		var page struct {
			Skills []any `json:"skills"`
		}
		if err := (extSession{s}).ListPage(ctx5s(t), "skills/list", "", &page); err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []struct {
		notice string // "" for none
		want   int    // skills/list requests the server has seen after listing again
	}{
		{"", 1},
		{"", 1}, // from the cache
		{"tools", 1},
		{"resources", 2},
		{"", 2},
	} {
		if step.notice != "" {
			f.Conn.Notify(ctx5s(t), "notifications/"+step.notice+"/list_changed", nil)
			<-changed // the hook runs once the cached pages are gone
		}
		list()
		if got := f.Count("skills/list"); got != step.want {
			t.Fatalf("after %q: %d skills/list requests, want %d", step.notice, got, step.want)
		}
	}
}

// A list_changed that comes ahead of a response empties the cache before
// the call returns, even while the callbacks are busy with what came
// before it: the list asked for next is the server's new one.
func TestListChangedAheadOfAResponseEmptiesTheCache(t *testing.T) {
	f := modernServer(t)
	var changed atomic.Bool
	f.Handle("tools/list", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		name := map[bool]string{false: "old", true: "new"}[changed.Load()]
		return json.RawMessage(`{"tools":[{"name":"` + name + `","inputSchema":{}}],"ttlMs":60000}`), nil
	})
	f.Handle("tools/call", func(ctx context.Context, r *jsonrpc.Request) (any, error) {
		changed.Store(true)
		f.Conn.Notify(ctx, "notifications/message", map[string]any{"level": "info", "data": "busy"})
		f.Conn.Notify(ctx, "notifications/tools/list_changed", nil)
		return map[string]any{"content": []any{}}, nil
	})
	release := make(chan struct{})
	defer close(release)
	s := connect(t, f, &Options{OnLog: func(LogMessage) { <-release }})
	if got, err := s.listTools(ctx5s(t), ""); err != nil || got.Tools[0].Name != "old" {
		t.Fatalf("first list: %v %v", got, err)
	}
	if _, err := s.CallTool(ctx5s(t), "change", nil); err != nil {
		t.Fatal(err)
	}
	if got, err := s.listTools(ctx5s(t), ""); err != nil || got.Tools[0].Name != "new" {
		t.Errorf("list after the change: %v %v, want the new tool", got, err)
	}
}
