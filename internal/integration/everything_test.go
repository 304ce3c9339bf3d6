package integration

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/mcpversion"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// hostRecorder plays the host: it answers the server's sampling,
// elicitation and roots requests and records that it did.
type hostRecorder struct {
	mu          sync.Mutex
	sampled     []*mcpclient.CreateMessageParams
	elicited    []*mcpclient.ElicitParams
	rootsAsked  int
	logMessages int
}

func (h *hostRecorder) options() *mcpclient.Options {
	return &mcpclient.Options{
		ClientInfo: mcpclient.Implementation{Name: "plainmcp-integration", Version: "1"},
		Sampling: func(ctx context.Context, p *mcpclient.CreateMessageParams) (*mcpclient.CreateMessageResult, error) {
			h.mu.Lock()
			h.sampled = append(h.sampled, p)
			h.mu.Unlock()
			return &mcpclient.CreateMessageResult{Role: "assistant", Model: "test-model", StopReason: "endTurn",
				Content: mcpclient.ContentList{{Type: "text", Text: "a canned completion"}}}, nil
		},
		Elicitation: func(ctx context.Context, p *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
			h.mu.Lock()
			h.elicited = append(h.elicited, p)
			h.mu.Unlock()
			return &mcpclient.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "integer": 7}}, nil
		},
		Roots: func(ctx context.Context) ([]mcpclient.Root, error) {
			h.mu.Lock()
			h.rootsAsked++
			h.mu.Unlock()
			return []mcpclient.Root{{URI: "file:///workspace/project", Name: "project"}}, nil
		},
		OnLog: func(mcpclient.LogMessage) { h.mu.Lock(); h.logMessages++; h.mu.Unlock() },
	}
}

// startEverything runs server-everything over stdio, or skips.
func startEverything(t *testing.T, envVar string, h *hostRecorder) *mcpclient.Session {
	t.Helper()
	return startEverythingWith(t, envVar, h.options())
}

// startEverythingWith is startEverything with the host's options.
func startEverythingWith(t *testing.T, envVar string, opts *mcpclient.Options) *mcpclient.Session {
	t.Helper()
	entry := os.Getenv(envVar)
	if entry == "" {
		t.Skipf("%s not set: run `make integration`", envVar)
	}
	stream, err := transport.StartStdio(transport.StdioConfig{Command: "node", Args: []string{entry, "stdio"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := mcpclient.Connect(ctx, stream, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func ctx30s(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestIntegrationEverything(t *testing.T) {
	h := &hostRecorder{}
	exerciseEverything(t, startEverything(t, "PLAINMCP_EVERYTHING", h), h)
}

// exerciseEverything runs every check against a server-everything session,
// whatever its transport.
func exerciseEverything(t *testing.T, s *mcpclient.Session, h *hostRecorder) {
	ctx := ctx30s(t)

	if s.ProtocolVersion() != mcpversion.V20251125 || s.Era() != mcpclient.EraHandshake || s.ServerInfo().Name == "" || s.Capabilities().Tools == nil {
		t.Fatalf("session: %s %+v", s.ProtocolVersion(), s.ServerInfo())
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}

	t.Run("tools", func(t *testing.T) {
		tools, err := mcpclient.Collect(s.Tools(ctx))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range tools {
			names = append(names, tool.Name)
			if !json.Valid(tool.InputSchema) {
				t.Errorf("%s: input schema is not JSON", tool.Name)
			}
		}
		for _, want := range []string{"echo", "get-sum", "get-tiny-image", "trigger-sampling-request", "trigger-elicitation-request", "get-roots-list"} {
			if !slices.Contains(names, want) {
				t.Errorf("tool %s missing from %v", want, names)
			}
		}
	})

	t.Run("echo and sum", func(t *testing.T) {
		res, err := s.CallTool(ctx, "echo", map[string]string{"message": "plainmcp"})
		if err != nil || res.IsError || !strings.Contains(res.Text(), "plainmcp") {
			t.Errorf("echo: %+v %v", res, err)
		}
		res, err = s.CallTool(ctx, "get-sum", map[string]int{"a": 19, "b": 23})
		if err != nil || !strings.Contains(res.Text(), "42") {
			t.Errorf("get-sum: %+v %v", res, err)
		}
	})

	t.Run("content kinds", func(t *testing.T) {
		res, err := s.CallTool(ctx, "get-tiny-image", nil)
		if err != nil {
			t.Fatal(err)
		}
		if i := slices.IndexFunc(res.Content, func(c mcpclient.Content) bool { return c.Type == "image" }); i < 0 {
			t.Errorf("no image in %+v", res.Content)
		} else if _, err := base64.StdEncoding.DecodeString(res.Content[i].Data); err != nil || res.Content[i].MimeType == "" {
			t.Errorf("image data: %v, mime %q", err, res.Content[i].MimeType)
		}
		res, err = s.CallTool(ctx, "get-resource-links", map[string]int{"count": 3})
		if err != nil || countType(res.Content, "resource_link") != 3 {
			t.Errorf("resource links: %+v %v", res, err)
		}
		res, err = s.CallTool(ctx, "get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": 1})
		if err != nil || countType(res.Content, "resource") != 1 {
			t.Errorf("embedded resource: %+v %v", res, err)
		}
		res, err = s.CallTool(ctx, "get-structured-content", map[string]string{"location": "New York"})
		if err != nil || len(res.StructuredContent) == 0 || !json.Valid(res.StructuredContent) {
			t.Errorf("structured content: %+v %v", res, err)
		}
	})

	t.Run("errors", func(t *testing.T) {
		// Servers report these as a JSON-RPC error or as an isError
		// result; either way the session lives on.
		for name, args := range map[string]any{"no-such-tool": nil, "get-sum": map[string]string{"a": "x"}} {
			res, err := s.CallTool(ctx, name, args)
			var rpcErr *jsonrpc.Error
			if err == nil && !res.IsError || err != nil && !errors.As(err, &rpcErr) {
				t.Errorf("%s: %+v %v", name, res, err)
			}
		}
		if err := s.Ping(ctx); err != nil {
			t.Errorf("session broken after tool errors: %v", err)
		}
	})

	t.Run("progress", func(t *testing.T) {
		var mu sync.Mutex
		var seen []mcpclient.Progress
		pctx := mcpclient.WithProgress(ctx, func(p mcpclient.Progress) { mu.Lock(); seen = append(seen, p); mu.Unlock() })
		res, err := s.CallTool(pctx, "trigger-long-running-operation", map[string]int{"duration": 1, "steps": 4})
		if err != nil || res.IsError {
			t.Fatalf("%+v %v", res, err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(seen) != 4 || seen[3].Progress != 4 || seen[3].Total != 4 {
			t.Errorf("progress: %+v", seen)
		}
	})

	t.Run("sampling", func(t *testing.T) {
		res, err := s.CallTool(ctx, "trigger-sampling-request", map[string]any{"prompt": "hello there", "maxTokens": 20})
		if err != nil || res.IsError || !strings.Contains(res.Text(), "a canned completion") {
			t.Fatalf("%+v %v", res, err)
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if len(h.sampled) != 1 || !strings.Contains(h.sampled[0].Messages[0].Content[0].Text, "hello there") {
			t.Errorf("sampling request: %+v", h.sampled)
		}
	})

	t.Run("elicitation", func(t *testing.T) {
		res, err := s.CallTool(ctx, "trigger-elicitation-request", map[string]any{})
		if err != nil || res.IsError {
			t.Fatalf("%+v %v", res, err)
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if len(h.elicited) != 1 || !json.Valid(h.elicited[0].RequestedSchema) || h.elicited[0].Message == "" {
			t.Errorf("elicitation request: %+v", h.elicited)
		}
		if !strings.Contains(res.Text(), "accept") {
			t.Errorf("server did not see the acceptance: %s", res.Text())
		}
	})

	t.Run("roots", func(t *testing.T) {
		res, err := s.CallTool(ctx, "get-roots-list", nil)
		if err != nil || !strings.Contains(res.Text(), "file:///workspace/project") {
			t.Errorf("%+v %v", res, err)
		}
	})

	t.Run("resources", func(t *testing.T) {
		resources, err := mcpclient.Collect(s.Resources(ctx))
		if err != nil || len(resources) == 0 {
			t.Fatalf("%d resources, %v", len(resources), err)
		}
		got, err := s.ReadResource(ctx, resources[0].URI)
		if err != nil || len(got.Contents) == 0 || got.Contents[0].URI != resources[0].URI {
			t.Errorf("read %s: %+v %v", resources[0].URI, got, err)
		}
		templates, err := mcpclient.Collect(s.ResourceTemplates(ctx))
		if err != nil || len(templates) == 0 {
			t.Fatalf("templates: %v %v", templates, err)
		}
		for _, tmpl := range templates {
			uri := strings.Replace(tmpl.URITemplate, "{resourceId}", "3", 1)
			got, err := s.ReadResource(ctx, uri)
			if err != nil || len(got.Contents) != 1 {
				t.Errorf("read %s: %+v %v", uri, got, err)
				continue
			}
			if strings.Contains(uri, "blob") && !got.Contents[0].IsBlob {
				t.Errorf("%s: want a blob", uri)
			}
		}
		if err := s.Subscribe(ctx, resources[0].URI); err != nil {
			t.Errorf("subscribe: %v", err)
		}
		if err := s.Unsubscribe(ctx, resources[0].URI); err != nil {
			t.Errorf("unsubscribe: %v", err)
		}
	})

	t.Run("prompts", func(t *testing.T) {
		prompts, err := mcpclient.Collect(s.Prompts(ctx))
		if err != nil || len(prompts) == 0 {
			t.Fatalf("%v %v", prompts, err)
		}
		got, err := s.GetPrompt(ctx, "simple-prompt", nil)
		if err != nil || len(got.Messages) == 0 {
			t.Errorf("simple-prompt: %+v %v", got, err)
		}
		got, err = s.GetPrompt(ctx, "args-prompt", map[string]string{"city": "Lisbon"})
		if err != nil || !strings.Contains(got.Messages[0].Content.Text, "Lisbon") {
			t.Errorf("args-prompt: %+v %v", got, err)
		}
		got, err = s.GetPrompt(ctx, "resource-prompt", map[string]string{"resourceType": "Text", "resourceId": "2"})
		if err != nil || countPromptType(got.Messages, "resource") == 0 {
			t.Errorf("resource-prompt: %+v %v", got, err)
		}
		c, err := s.Complete(ctx, &mcpclient.CompleteParams{
			Ref:      mcpclient.CompleteRef{Type: "ref/prompt", Name: "completable-prompt"},
			Argument: mcpclient.CompleteArgument{Name: "department", Value: "E"},
		})
		if err != nil || len(c.Values) == 0 {
			t.Errorf("completion: %+v %v", c, err)
		}
	})

	t.Run("logging", func(t *testing.T) {
		if err := s.SetLogLevel(ctx, "debug"); err != nil {
			t.Error(err)
		}
	})
}

// TestIntegrationEverythingPagination follows server-everything 2025.9.25's
// paginated resources/list: 100 resources in pages of 10.
func TestIntegrationEverythingPagination(t *testing.T) {
	s := startEverything(t, "PLAINMCP_EVERYTHING_LEGACY", &hostRecorder{})
	ctx := ctx30s(t)
	var first struct { // the first page, as a host that pages by hand reads it
		Resources  []json.RawMessage `json:"resources"`
		NextCursor string            `json:"nextCursor"`
	}
	err := s.Call(ctx, "resources/list", nil, &first)
	if err != nil || first.NextCursor == "" {
		t.Fatalf("first page: %+v %v", first, err)
	}
	all, err := mcpclient.Collect(s.Resources(ctx))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range all {
		if seen[r.URI] {
			t.Errorf("resource %s listed twice", r.URI)
		}
		seen[r.URI] = true
	}
	if len(all) != 100 || len(first.Resources) >= len(all) {
		t.Errorf("%d resources over pages of %d", len(all), len(first.Resources))
	}
}

func countType(content []mcpclient.Content, typ string) int {
	n := 0
	for _, c := range content {
		if c.Type == typ {
			n++
		}
	}
	return n
}

func countPromptType(msgs []mcpclient.PromptMessage, typ string) int {
	n := 0
	for _, m := range msgs {
		if m.Content.Type == typ {
			n++
		}
	}
	return n
}
