package bridge_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/plainmcp/plainmcp/bridge"
	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// scripted stands in for a Chat Completions provider: it answers with
// the given bodies in turn.
func scripted(bodies ...string) *httptest.Server {
	var mu sync.Mutex
	n := 0
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		body := bodies[min(n, len(bodies)-1)]
		n++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
}

// A server's sampling request, answered by an OpenAI-compatible model.
func ExampleSampling() {
	provider := scripted(`{"model":"gpt-4o-mini","choices":[{"message":{"role":"assistant","content":"Water, mostly."},"finish_reason":"stop"}]}`)
	defer provider.Close()

	model := &bridge.OpenAI{APIKey: secret.New("sk-…"), BaseURL: provider.URL, Model: "gpt-4o-mini"}
	handle := bridge.Sampling(model) // what mcpclient.Options.Sampling takes
	res, err := handle(context.Background(), &mcpclient.CreateMessageParams{
		MaxTokens: 50,
		Messages: []mcpclient.SamplingMessage{
			{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: "What do pipes carry?"}}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Model, res.StopReason, res.Content[0].Text)
	// Output: gpt-4o-mini endTurn Water, mostly.
}

// demoRegistry is a registry of one demo server, in memory.
func demoRegistry() (*toolreg.Registry, error) {
	dial := func(ctx context.Context, sc *toolreg.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		client, server := transport.Pipe()
		go demoserver.New(&demoserver.Options{Name: sc.Name}).Serve(context.Background(), server)
		return mcpclient.Connect(ctx, client, opts)
	}
	cfg := &toolreg.Config{Servers: []*toolreg.ServerConfig{{Name: "demo", Type: "memory"}}}
	return toolreg.New(context.Background(), cfg, &toolreg.Options{Dial: dial})
}

// A call runs only if the host's approver agrees (or the host trusts its
// server's read-only mark); here it refuses, and the model reads why.
func ExampleRunOptions_approve() {
	provider := scripted(
		`{"model":"m","choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function",
			"function":{"name":"mcp__demo__change","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"model":"m","choices":[{"message":{"role":"assistant","content":"I was not allowed to."},"finish_reason":"stop"}]}`)
	defer provider.Close()
	reg, err := demoRegistry()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Close()

	model := &bridge.OpenAI{BaseURL: provider.URL, Model: "m"}
	tr, err := bridge.Run(context.Background(), model, reg, "Change the tools", &bridge.RunOptions{
		Approve: func(ctx context.Context, c toolreg.Call) error {
			fmt.Printf("asked: tool %s of server %s, arguments %s\n", c.Tool, c.Server, c.Args)
			return errors.New("the user said no")
		},
		OnTool: func(use, result mcpclient.Content) {
			fmt.Println("the model read:", result.Content[0].Text)
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tr.Answer)
	// Output:
	// asked: tool change of server demo, arguments {}
	// the model read: not run: the call was not approved: the user said no
	// I was not allowed to.
}

// A model that uses a server's tool to answer a question.
func ExampleRun() {
	provider := scripted(
		`{"model":"m","choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function",
			"function":{"name":"mcp__demo__add","arguments":"{\"a\":2,\"b\":40}"}}]},"finish_reason":"tool_calls"}]}`,
		`{"model":"m","choices":[{"message":{"role":"assistant","content":"2 + 40 = 42"},"finish_reason":"stop"}]}`)
	defer provider.Close()

	reg, err := demoRegistry() // one demo server, in memory
	if err != nil {
		fmt.Println(err)
		return
	}
	defer reg.Close()

	model := &bridge.OpenAI{APIKey: secret.New("sk-…"), BaseURL: provider.URL, Model: "m"}
	tr, err := bridge.Run(context.Background(), model, reg, "What is 2 + 40?", &bridge.RunOptions{
		// The host's own demo server: its read-only hints (add's) are
		// trusted, and add runs without asking. Any other server's tools
		// would go to Approve, and with none be refused.
		TrustAnnotations: func(server string) bool { return server == "demo" },
		OnTool: func(use, result mcpclient.Content) {
			fmt.Println("called", use.Name, string(use.Input), "→", strings.TrimSpace(result.Content[0].Text))
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tr.Answer, "after", tr.Turns, "turns")
	// Output:
	// called mcp__demo__add {"a":2,"b":40} → 42
	// 2 + 40 = 42 after 2 turns
}
