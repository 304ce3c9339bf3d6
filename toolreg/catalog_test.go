package toolreg

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/internal/testkit/memdemo"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

func TestRegistryRefreshIsOneRequestForManyCallers(t *testing.T) {
	leakcheck.Check(t)
	m := &inMemory{}
	// The registry marks the listing stale, then calls this.
	changed := make(chan string, 1)
	onChange := &mcpclient.Options{OnListChanged: func(kind string) {
		select { // the first change; a handler must not block the session
		case changed <- kind:
		default:
		}
	}}
	r := newInMemory(t, m, &Options{Session: onChange}, "a", "b")
	if _, err := r.Tools(ctx10(t)); err != nil {
		t.Fatal(err)
	}
	if n := m.Sent("a", "tools/list"); n != 1 {
		t.Fatalf("first listing: %d tools/list requests", n)
	}
	// A fresh listing is served from the cache.
	for range 10 {
		r.Tools(ctx10(t))
	}
	if n := m.Sent("a", "tools/list"); n != 1 {
		t.Fatalf("cached listings sent %d tools/list requests", n)
	}
	if _, err := r.Call(ctx10(t), "mcp__a__change", nil); err != nil { // announces tools/list_changed
		t.Fatal(err)
	}
	if kind := <-changed; kind != "tools" {
		t.Fatalf("the server announced a change of %q", kind)
	}
	// The first caller gives up at once; the refresh it started goes on for
	// the hundred others, which all share it.
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	r.Tools(gone)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tools, err := r.Tools(ctx10(t))
			if err == nil && !hasTool(tools, "mcp__a__dynamic") {
				err = errors.New("a caller missed the change")
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := m.Sent("a", "tools/list"); n != 2 {
		t.Errorf("%d tools/list requests for 1 refresh and 101 callers, want 2 in all", n)
	}
	if n := m.Sent("b", "tools/list"); n != 1 {
		t.Errorf("server b, which did not change, was listed %d times", n)
	}
}

func TestRegistryPromptsAndResources(t *testing.T) {
	leakcheck.Check(t)
	m := &inMemory{}
	r := newInMemory(t, m, nil, "a", "b.docs")
	prompts, err := r.Prompts(ctx10(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range prompts {
		names = append(names, p.Name)
	}
	for _, want := range []string{"mcp__a__greeting", "mcp__b_docs__greeting", "mcp__b_docs__code-review"} {
		if !contains(names, want) {
			t.Errorf("%s missing from %v", want, names)
		}
	}
	got, err := r.GetPrompt(ctx10(t), "mcp__b_docs__greeting", map[string]string{"name": "Ada"})
	if err != nil || len(got.Messages) == 0 || !strings.Contains(got.Messages[0].Content.Text, "Ada") {
		t.Fatalf("GetPrompt: %+v %v", got, err)
	}
	if m.Sent("b.docs", "prompts/get") != 1 || m.Sent("a", "prompts/get") != 0 {
		t.Error("prompts/get went to the wrong server")
	}
	if _, err := r.GetPrompt(ctx10(t), "mcp__a__nope", nil); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("unknown prompt: %v", err)
	}
	r.Prompts(ctx10(t))
	if n := m.Sent("a", "prompts/list"); n != 1 {
		t.Errorf("prompts listed %d times, want 1 (cached)", n)
	}

	resources, err := r.Resources(ctx10(t))
	if err != nil {
		t.Fatal(err)
	}
	perServer := map[string]int{}
	for _, res := range resources {
		perServer[res.Server]++
	}
	if perServer["a"] == 0 || perServer["a"] != perServer["b.docs"] {
		t.Errorf("resources per server: %v", perServer)
	}
	templates, err := r.ResourceTemplates(ctx10(t))
	if err != nil || len(templates) != 2 || templates[1].Server != "b.docs" {
		t.Errorf("templates: %+v %v", templates, err)
	}
	read, err := r.ReadResource(ctx10(t), "b.docs", "demo://greetings/Bob") // from the template, never listed
	if err != nil || len(read.Contents) != 1 || !strings.Contains(read.Contents[0].Text, "Bob") {
		t.Fatalf("ReadResource: %+v %v", read, err)
	}
	if m.Sent("b.docs", "resources/read") != 1 || m.Sent("a", "resources/read") != 0 {
		t.Error("resources/read went to the wrong server")
	}
	if _, err := r.ReadResource(ctx10(t), "c", "demo://docs/readme"); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("unknown server: %v", err)
	}
	if _, err := r.ReadResource(ctx10(t), "a", "demo://nothing/here"); err == nil || !strings.Contains(err.Error(), `server "a"`) {
		t.Errorf("missing resource: %v", err)
	}
}

// A listing that stops at the page cap keeps the pages it got, marked
// incomplete in the status, and is not fetched again on every Tools.
func TestRegistryKeepsAnIncompleteListing(t *testing.T) {
	leakcheck.Check(t)
	var mu sync.Mutex
	frames := map[string]int{}
	// Pages of 2 tools and at most 1 page: every tools/list stops early.
	r := newInMemory(t, &inMemory{memdemo.Servers{PageSize: 2}}, &Options{
		Session: &mcpclient.Options{MaxPages: 1},
		WrapStream: func(server string, st jsonrpc.Stream) jsonrpc.Stream {
			return &memdemo.Counting{Stream: st, Count: func(string) {
				mu.Lock()
				frames[server]++
				mu.Unlock()
			}}
		},
	}, "paged")
	s := r.Servers()[0]
	if s.State != StateConnected || !errors.Is(s.ListErr, mcpclient.ErrPagination) || s.Tools != 2 {
		t.Errorf("status: %+v", s)
	}
	sent := func() int { mu.Lock(); defer mu.Unlock(); return frames["paged"] }
	before := sent()
	for range 3 {
		tools, err := r.Tools(ctx10(t))
		if err != nil || len(tools) != 2 {
			t.Errorf("Tools: %d tools, %v", len(tools), err)
		}
	}
	if after := sent(); after != before {
		t.Errorf("Tools asked the server again (%d more frames): an incomplete listing is kept", after-before)
	}
}
