package bridge

import (
	"context"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/appserver"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// A tool whose MCP Apps visibility leaves out the model is never offered
// to it, and a call the model makes to it anyway is refused before the
// registry sees it.
func TestRunHidesAppOnlyTools(t *testing.T) {
	srv := appserver.New()
	var approved []string
	reg, err := toolreg.New(context.Background(), &toolreg.Config{Servers: []*toolreg.ServerConfig{{Name: "apps", Type: "memory"}}}, &toolreg.Options{
		Approve: func(ctx context.Context, c toolreg.Call) error { approved = append(approved, c.Name); return nil },
		Dial: func(ctx context.Context, sc *toolreg.ServerConfig, so *mcpclient.Options) (*mcpclient.Session, error) {
			client, server := transport.Pipe()
			c := srv.Serve(server)
			s, err := mcpclient.Connect(ctx, client, so)
			if err != nil {
				c.Close()
				return nil, err
			}
			go func() { <-s.Done(); c.Close() }()
			return s, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	f := newFake(t, toolCalls([3]string{"c1", "mcp__apps__tick", `{}`}, [3]string{"c2", "mcp__apps__clock", `{}`}), answer("done"))
	if _, err := Run(context.Background(), newOpenAI(f), reg, "What time is it?", &RunOptions{TrustAnnotations: trustAll}); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	first := string(reqs[0].body)
	if strings.Contains(first, "mcp__apps__tick") || !strings.Contains(first, "mcp__apps__clock") {
		t.Errorf("offered tools: %s", first)
	}
	tools, _ := reg.Tools(context.Background())
	if got := openAIToolsOf(tools); len(got) != 3 {
		t.Errorf("OpenAITools exported %d tools, want the 3 visible to the model", len(got))
	}
	msgs := toolMessages(t, reqs[1].body)
	if !strings.Contains(msgs["c1"], "not offered") || strings.Contains(msgs["c2"], "not offered") {
		t.Errorf("tool results: %q", msgs)
	}
	if len(approved) != 1 || approved[0] != "mcp__apps__clock" {
		t.Errorf("approver saw %q, want only the clock", approved)
	}
}
