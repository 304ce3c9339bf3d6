package bridge

import (
	"context"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// connectDemo connects a session to an in-memory demo server, closed (and
// the server awaited) when the test ends.
func connectDemo(t *testing.T, opts *mcpclient.Options) *mcpclient.Session {
	t.Helper()
	client, server := transport.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		demoserver.New(&demoserver.Options{Name: "demo"}).Serve(context.Background(), server)
	}()
	s, err := mcpclient.Connect(context.Background(), client, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		<-done
	})
	return s
}

// The adapter answers a real server's sampling request, and a provider
// failure reaches the server as an error, leaving the session alive for
// the next call. (The demo server speaks the handshake era; the stateless
// era calls the same handler, see mcpclient's stateless tests.)
func TestSamplingPlugsIntoSession(t *testing.T) {
	for _, era := range []mcpclient.Era{mcpclient.EraHandshake} {
		f := newFake(t,
			reply{body: `{"model":"gpt-test","choices":[{"message":{"content":"Pipes carry water."},"finish_reason":"stop"}]}`},
			reply{status: 401, body: `{"error":{"message":"bad key"}}`})
		s := connectDemo(t, &mcpclient.Options{Era: era, Sampling: Sampling(newOpenAI(f)), SamplingTools: true})
		res, err := s.CallTool(context.Background(), "sample", map[string]any{"prompt": "Pipes?"})
		if err != nil {
			t.Fatalf("era %v: %v", era, err)
		}
		if got := res.Text(); !strings.Contains(got, "Pipes carry water.") || res.IsError {
			t.Errorf("era %v: got %q (isError %v), want the model's answer", era, got, res.IsError)
		}
		res, err = s.CallTool(context.Background(), "sample", map[string]any{"prompt": "Again?"})
		if err != nil {
			t.Fatalf("era %v: second call: %v", era, err)
		}
		if got := res.Text(); !res.IsError || !strings.Contains(got, "refused the API key") {
			t.Errorf("era %v: got %q (isError %v), want the server's report of the refused key", era, got, res.IsError)
		}
		if !strings.Contains(string(f.requests()[0].body), `"Pipes?"`) {
			t.Errorf("era %v: the prompt did not reach the provider: %s", era, f.requests()[0].body)
		}
	}
}

// End to end: the bundled server asks for sampling with tools, the adapter
// puts them to the provider, the provider answers with a tool call, and
// the server gets it back as a tool_use block (stop reason toolUse).
func TestSamplingWithToolsEndToEnd(t *testing.T) {
	f := newFake(t, reply{body: `{"model":"gpt-test","choices":[{"message":{"role":"assistant","content":null,` +
		`"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_time","arguments":"{\"city\":\"Oslo\"}"}}]},"finish_reason":"tool_calls"}]}`})
	s := connectDemo(t, &mcpclient.Options{Sampling: Sampling(newOpenAI(f)), SamplingTools: true})
	res, err := s.CallTool(context.Background(), "sample", map[string]any{"prompt": "What time is it in Oslo?", "tools": true})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Text(); res.IsError || !strings.Contains(got, `[tool_use get_time {"city":"Oslo"}]`) {
		t.Errorf("the server got %q (isError %v), want the model's tool call", got, res.IsError)
	}
	if !strings.Contains(string(res.StructuredContent), `"stopReason":"toolUse"`) {
		t.Errorf("structured: %s", res.StructuredContent)
	}
	req := string(f.requests()[0].body)
	for _, want := range []string{`"tools":[{"type":"function","function":{"name":"get_time"`, `"tool_choice":"required"`} {
		if !strings.Contains(req, want) {
			t.Errorf("the provider request lacks %s: %s", want, req)
		}
	}
}
