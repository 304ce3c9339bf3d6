package offer

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

func tool(name, desc string) toolreg.Tool {
	return toolreg.Tool{Name: "mcp__s__" + name, Server: "s",
		Def: &mcpclient.Tool{Name: name, Description: desc, InputSchema: json.RawMessage(`{"type":"object"}`)}}
}

func names(tools []toolreg.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func TestSelect(t *testing.T) {
	all := []toolreg.Tool{tool("a", "A"), tool("b", "B"), tool("c", "C")}
	notB := func(t toolreg.Tool) bool { return t.Name != "mcp__s__b" }
	for _, tc := range []struct {
		names  []string
		filter func(toolreg.Tool) bool
		want   []string
	}{
		{nil, nil, []string{"mcp__s__a", "mcp__s__b", "mcp__s__c"}},
		{[]string{"mcp__s__c", "mcp__s__b"}, nil, []string{"mcp__s__b", "mcp__s__c"}},
		{nil, notB, []string{"mcp__s__a", "mcp__s__c"}},
		{[]string{"mcp__s__b", "mcp__s__c"}, notB, []string{"mcp__s__c"}},
		{[]string{"mcp__s__nope"}, nil, nil},
	} {
		if got := names(Select(all, tc.names, tc.filter)); !slices.Equal(got, tc.want) {
			t.Errorf("Select(%q, filter %v) = %q, want %q", tc.names, tc.filter != nil, got, tc.want)
		}
	}
	if len(all) != 3 || all[1].Name != "mcp__s__b" {
		t.Errorf("Select changed its argument: %q", names(all))
	}
}

// The auto mode searches once the definitions pass the share of the
// window (a token for every 4 bytes); the others do what they say.
func TestSearchOn(t *testing.T) {
	small := []toolreg.Tool{tool("a", "A")}
	big := []toolreg.Tool{tool("a", strings.Repeat("x", 60_000))} // over 10 % of 128,000 tokens × 4 bytes
	for _, tc := range []struct {
		tools  []toolreg.Tool
		mode   string
		window int
		share  float64
		want   bool
	}{
		{small, "", 0, 0, false},
		{big, "", 0, 0, true},
		{big, "AUTO", 0, 0, true},
		{big, "off", 0, 0, false},
		{small, "On", 0, 0, true},
		{small, "auto", 100, 0.1, true}, // 40 bytes of room
		{big, "auto", 0, 0.5, false},
		{big, "sometimes", 0, 0, false},
		{nil, "auto", 1, 0.01, false},
	} {
		if got := SearchOn(tc.tools, tc.mode, tc.window, tc.share); got != tc.want {
			t.Errorf("SearchOn(%d tools, %q, %d, %v) = %v, want %v", len(tc.tools), tc.mode, tc.window, tc.share, got, tc.want)
		}
	}
	if m, ok := Mode("sometimes"); ok || m != "" {
		t.Errorf("Mode(sometimes) = %q, %v, want an unknown mode", m, ok)
	}
}
