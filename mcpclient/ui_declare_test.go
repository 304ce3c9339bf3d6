package mcpclient

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
)

// The client's side of declaring MCP Apps; package apps tests the rest of
// the extension.

// Clients advertise MCP Apps in capabilities.extensions with mimeTypes
// (REQUIRED) — and plainmcp only when the host opts in.
func TestUIDeclaredOnlyWhenAsked(t *testing.T) {
	for _, tc := range []struct {
		opts *Options
		want string
	}{
		{&Options{}, `{}`},
		{&Options{UI: true}, `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`},
		{&Options{UI: true, Skills: true}, `{"extensions":{"io.modelcontextprotocol/skills":{},"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`},
	} {
		got, _ := json.Marshal(tc.opts.capabilities(EraHandshake))
		if string(got) != tc.want {
			t.Errorf("UI=%v Skills=%v: capabilities = %s, want %s", tc.opts.UI, tc.opts.Skills, got, tc.want)
		}
	}
}

func TestUIDeclaredOnTheWire(t *testing.T) {
	f := fakemcp.New(t)
	connect(t, f, &Options{UI: true, Era: EraHandshake})
	var p struct {
		Capabilities struct {
			Extensions map[string]struct {
				MimeTypes []string `json:"mimeTypes"`
			} `json:"extensions"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(f.Request("initialize").Params, &p); err != nil {
		t.Fatal(err)
	}
	if got := p.Capabilities.Extensions["io.modelcontextprotocol/ui"].MimeTypes; !cmp.Equal(got, []string{"text/html;profile=mcp-app"}) {
		t.Errorf("initialize declared mimeTypes %v", got)
	}
}
