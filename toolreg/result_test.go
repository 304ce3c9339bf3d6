package toolreg

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/mcpclient"
)

func TestResultSummary(t *testing.T) {
	size := int64(2048)
	text := func(s string) mcpclient.Content { return mcpclient.Content{Type: "text", Text: s} }
	tests := []struct {
		name string
		res  Result
		max  int
		want string
	}{
		{"empty", Result{}, 0, ""},
		{"text items joined", Result{Content: []mcpclient.Content{text("one"), text("two")}}, 0, "one\ntwo"},
		{"text before other items, whatever the order",
			Result{Content: []mcpclient.Content{
				{Type: "image", MimeType: "image/png", Data: "iVBORw0KGgo="},
				text("a chart"),
				{Type: "audio", Data: "AAAA"},
			}}, 0,
			"a chart\n[image image/png, 8 bytes]\n[audio unknown type, 3 bytes]"},
		{"resource link",
			Result{Content: []mcpclient.Content{{Type: "resource_link", URI: "file:///a.txt", Name: "a.txt", MimeType: "text/plain", Size: &size}}}, 0,
			`[resource link "a.txt": file:///a.txt, text/plain, 2.0 KiB]`},
		{"embedded text resource brings its text",
			Result{Content: []mcpclient.Content{{Type: "resource", Resource: &mcpclient.ResourceContents{URI: "demo://n", MimeType: "application/json", Text: "[1,2]"}}}}, 0,
			"[resource demo://n, application/json]\n[1,2]"},
		{"embedded blob is only named",
			Result{Content: []mcpclient.Content{{Type: "resource", Resource: &mcpclient.ResourceContents{URI: "demo://b", Blob: strings.Repeat("A", 2097152), IsBlob: true}}}}, 0,
			"[resource demo://b, unknown type, 1.5 MiB]"},
		{"unknown item type", Result{Content: []mcpclient.Content{{Type: "hologram", Raw: json.RawMessage(`{"type":"hologram"}`)}}}, 0, "[hologram content]"},
		{"structured content alone, compacted",
			Result{Structured: json.RawMessage("{\n  \"items\": 5\n}")}, 0, `{"items":5}`},
		{"structured content already in a text item is not repeated",
			Result{Content: []mcpclient.Content{text("{\"items\": 5}")}, Structured: json.RawMessage(`{"items":5}`)}, 0, `{"items": 5}`},
		{"with text present, the text is the summary: structured content is not added",
			Result{Content: []mcpclient.Content{text("five items")}, Structured: json.RawMessage(`{"items":5}`)}, 0, "five items"},
		{"a 5,200-byte file with its structured twin stays about 5,200 bytes",
			Result{Content: []mcpclient.Content{text(strings.Repeat("x", 5200))}, Structured: json.RawMessage(`{"content":"` + strings.Repeat("x", 5200) + `"}`)}, 0, strings.Repeat("x", 5200)},
		{"structured content alone is the summary",
			Result{Structured: json.RawMessage(`{ "items" : 5 }`)}, 0, `{"items":5}`},
		{"a failure ends with a line naming the tool",
			Result{Server: "fs", Tool: "read", IsError: true, Content: []mcpclient.Content{text("no such file")}}, 0,
			"no such file\n[tool \"read\" of server \"fs\" reported an error]"},
		{"cap with a note", Result{Content: []mcpclient.Content{text(strings.Repeat("x", 200))}}, 80,
			strings.Repeat("x", 80-len("\n[… truncated: the full result is 200 bytes]")) + "\n[… truncated: the full result is 200 bytes]"},
		{"a cap too small for the note cuts bare", Result{Content: []mcpclient.Content{text("abcdefghij")}}, 4, "abcd"},
		{"under the cap, untouched", Result{Content: []mcpclient.Content{text("short")}}, 5, "short"},
		{"cut on a rune boundary", Result{Content: []mcpclient.Content{text("ééééé")}}, 3, "é"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.res.Summary(tt.max)
			if got != tt.want {
				t.Errorf("Summary(%d) =\n%q\nwant\n%q", tt.max, got, tt.want)
			}
			if tt.max > 0 && len(got) > tt.max {
				t.Errorf("%d bytes, over the cap of %d", len(got), tt.max)
			}
			if !utf8.ValidString(got) {
				t.Error("not valid UTF-8")
			}
		})
	}
}

func FuzzSummaryCap(f *testing.F) {
	f.Add("héllo wörld", 5)
	f.Add(strings.Repeat("🔥", 40), 50)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if !utf8.ValidString(s) {
			return
		}
		got := (&Result{Content: []mcpclient.Content{{Type: "text", Text: s}}}).Summary(max)
		if max > 0 && len(got) > max {
			t.Fatalf("%d bytes over a cap of %d", len(got), max)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8: %q", got)
		}
		if max <= 0 || len(s) <= max {
			if got != s {
				t.Fatalf("changed without need: %q", got)
			}
		} else if !strings.HasPrefix(s, strings.SplitN(got, "\n[… truncated", 2)[0]) {
			t.Fatalf("not a prefix of the text: %q", got)
		}
	})
}
