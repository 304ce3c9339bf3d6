package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// corpusRegistry serves the real tool listings of the ranker's test
// corpus from fake servers whose calls answer "ran <tool>": each server
// under its name and, as people connect several accounts, as many more
// times as it takes to make 1,000 tools of 50 servers ("name-2", …). It
// returns the servers by name.
func corpusRegistry(t *testing.T, opts *toolreg.Options) (*toolreg.Registry, map[string]*fakeServer) {
	t.Helper()
	b, err := os.ReadFile("../internal/toolsearch/testdata/tools.json")
	if err != nil {
		t.Fatal(err)
	}
	var corpus []struct {
		Server string            `json:"server"`
		Tools  []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(b, &corpus); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, c := range corpus {
		total += len(c.Tools)
	}
	copies := max((1000+total-1)/max(total, 1), (50+len(corpus)-1)/max(len(corpus), 1))
	servers := map[string]*fakeServer{}
	cfg := &toolreg.Config{}
	for _, c := range corpus {
		for k := range copies {
			name := c.Server
			if k > 0 {
				name = fmt.Sprintf("%s-%d", c.Server, k+1)
			}
			s := &fakeServer{tools: map[string]fakeTool{}}
			for _, def := range c.Tools {
				var d struct{ Name string }
				json.Unmarshal(def, &d)
				s.tools[d.Name] = fakeTool{def: string(def), call: func(context.Context, json.RawMessage) string {
					return textResult("ran " + d.Name)
				}}
				s.order = append(s.order, d.Name)
			}
			servers[name] = s
			cfg.Servers = append(cfg.Servers, &toolreg.ServerConfig{Name: name, Type: "memory"})
		}
	}
	var conns []*jsonrpc.Conn
	var mu sync.Mutex
	o := toolreg.Options{}
	if opts != nil {
		o = *opts
	}
	o.Dial = func(ctx context.Context, sc *toolreg.ServerConfig, so *mcpclient.Options) (*mcpclient.Session, error) {
		client, server := transport.Pipe()
		c := jsonrpc.NewConn(server, &jsonrpc.Options{Handler: servers[sc.Name].handle})
		mu.Lock()
		conns = append(conns, c)
		mu.Unlock()
		return mcpclient.Connect(ctx, client, so)
	}
	reg, err := toolreg.New(context.Background(), cfg, &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		reg.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return reg, servers
}

// requestTools returns the tools array of a recorded provider request,
// each element as raw JSON.
func requestTools(t *testing.T, body []byte) []json.RawMessage {
	t.Helper()
	var req struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	return req.Tools
}

func toolsBytes(tools []json.RawMessage) int {
	n := 0
	for _, t := range tools {
		n += len(t)
	}
	return n
}

// anthropicToolUse is a Messages API answer calling one tool.
func anthropicToolUse(id, name, input string) reply {
	return reply{body: fmt.Sprintf(`{"id":"msg","type":"message","role":"assistant","model":"claude-test",
		"content":[{"type":"tool_use","id":%q,"name":%q,"input":%s}],"stop_reason":"tool_use"}`, id, name, input)}
}

func anthropicAnswer(text string) reply {
	return reply{body: fmt.Sprintf(`{"id":"msg","type":"message","role":"assistant","model":"claude-test",
		"content":[{"type":"text","text":%q}],"stop_reason":"end_turn"}`, text)}
}

// TestToolSearchOverRealListings runs, with both adapters, a scripted
// model over 1,000+ real tool definitions of 50+ servers in the default
// (auto) mode: its first request carries a few KB of definitions, not
// all of them; it searches, then calls what it found, which runs on its
// server; each request's tools array begins with the one before.
func TestToolSearchOverRealListings(t *testing.T) {
	leakcheck.Check(t)
	reg, servers := corpusRegistry(t, nil)
	all, err := reg.ModelTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 1000 || len(servers) < 50 {
		t.Fatalf("the corpus has %d tools of %d servers, want 1,000+ of 50+", len(all), len(servers))
	}
	const want = "mcp__github__create_issue"
	search := `{"query":"open a new bug report in a GitHub repo"}`
	for _, tc := range []struct {
		name    string
		model   func(*fakeProvider) Model
		replies []reply
	}{
		{"openai", func(f *fakeProvider) Model { return newOpenAI(f) }, []reply{
			toolCalls([3]string{"c1", searchToolName, search}),
			toolCalls([3]string{"c2", want, `{"owner":"o","repo":"r","title":"t"}`}),
			answer("filed"),
		}},
		{"anthropic", func(f *fakeProvider) Model { return newAnthropic(f) }, []reply{
			anthropicToolUse("c1", searchToolName, search),
			anthropicToolUse("c2", want, `{"owner":"o","repo":"r","title":"t"}`),
			anthropicAnswer("filed"),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.replies...)
			before := servers["github"].calls.Load()
			var approved []string
			tr, err := Run(context.Background(), tc.model(f), reg, "File a bug", &RunOptions{
				Approve: func(_ context.Context, c toolreg.Call) error { approved = append(approved, c.Name); return nil }})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Answer != "filed" || servers["github"].calls.Load() != before+1 || len(approved) != 1 || approved[0] != want {
				t.Errorf("answer %q, github ran %d calls, approved %q", tr.Answer, servers["github"].calls.Load()-before, approved)
			}
			reqs := f.requests()
			first := requestTools(t, reqs[0].body)
			if n := toolsBytes(first); n > 10_000 || len(first) != 1 {
				t.Errorf("first request: %d tools in %d bytes, want search_tools alone in at most 10 KB", len(first), n)
			}
			res := toolMessagesAny(t, reqs[1].body, "c1")
			if !strings.Contains(res, want) {
				t.Errorf("search result %q does not name %s", res, want)
			}
			for i := 1; i < len(reqs); i++ {
				prev, next := requestTools(t, reqs[i-1].body), requestTools(t, reqs[i].body)
				if len(next) < len(prev) || !equalRaw(next[:len(prev)], prev) {
					t.Errorf("request %d's tools do not begin with request %d's", i+1, i)
				}
			}
			if second := requestTools(t, reqs[1].body); len(second) < 2 || !strings.Contains(string(second[1]), want) && !containsRaw(second, want) {
				t.Errorf("second request's tools do not define %s", want)
			}
			if tr.Deferred < 1000 {
				t.Errorf("Deferred = %d, want the 1,000+ tools not found", tr.Deferred)
			}
			t.Logf("%d tools of %d servers; first request: %d bytes of tool definitions", len(all), len(servers), toolsBytes(first))
		})
	}
	// Off, the first request carries every definition.
	f := newFake(t, answer("no tools needed"))
	if _, err := Run(context.Background(), newOpenAI(f), reg, "hi", &RunOptions{ToolSearch: "off"}); err != nil {
		t.Fatal(err)
	}
	tools := requestTools(t, f.requests()[0].body)
	if len(tools) != len(all) {
		t.Errorf("off: %d tools offered, want all %d", len(tools), len(all))
	}
	t.Logf("off: %d bytes of tool definitions (about %dk tokens)", toolsBytes(tools), toolsBytes(tools)/4/1000)
}

func equalRaw(a, b []json.RawMessage) bool {
	for i := range a {
		if string(a[i]) != string(b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

func containsRaw(list []json.RawMessage, s string) bool {
	for _, r := range list {
		if strings.Contains(string(r), `"`+s+`"`) {
			return true
		}
	}
	return false
}

// toolMessagesAny returns the text of the tool result of call id in a
// Chat Completions or Messages request.
func toolMessagesAny(t *testing.T, body []byte, id string) string {
	t.Helper()
	var req struct {
		Messages []struct {
			ToolCallID string          `json:"tool_call_id"`
			Content    json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	for _, m := range req.Messages {
		if m.ToolCallID == id {
			return string(m.Content)
		}
		var items []struct {
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &items) == nil {
			for _, it := range items {
				if it.ToolUseID == id {
					return string(it.Content)
				}
			}
		}
	}
	return ""
}

// A conversation loads at most maxLoadedTools definitions by search or by
// call, however many searches it makes, so that the array search mode
// keeps small cannot grow back to every definition; the always-loaded
// tools still come, and a search once full says to call tools by name.
func TestLoadedDefinitionsAreBounded(t *testing.T) {
	var selectable []toolreg.Tool
	for i := range 3 * maxLoadedTools {
		selectable = append(selectable, toolreg.Tool{Name: fmt.Sprintf("mcp__s__t%d", i), Def: &mcpclient.Tool{Name: fmt.Sprintf("t%d", i)}})
	}
	last := selectable[len(selectable)-1].Name
	d := newDiscovery([]string{last})
	for start := 0; start < 2*maxLoadedTools; start += maxSearchResults {
		var b strings.Builder
		for _, tool := range selectable[start : start+maxSearchResults] {
			b.WriteString("- " + tool.Name + ": a tool\n")
		}
		use := mcpclient.Content{Type: "tool_use", ID: "s", Name: searchToolName}
		result := mcpclient.Content{Content: []mcpclient.Content{{Type: "text", Text: b.String()}}}
		d.absorb([]mcpclient.Content{use}, []mcpclient.Content{result}, selectable)
	}
	got := d.offer(selectable)
	if len(got) != maxLoadedTools+1 {
		t.Errorf("%d definitions offered, want %d and the always-loaded one", len(got), maxLoadedTools)
	}
	if got[len(got)-1].Name != last {
		t.Errorf("the always-loaded tool is not offered once the definitions are full")
	}
	text := searchResult("s", selectable[:2], 1<<16, d.full()).Content[0].Text
	if !strings.Contains(text, "call one by its name") {
		t.Errorf("a search once full says: %q", text)
	}
}
