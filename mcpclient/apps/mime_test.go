package apps

import (
	"mime"
	"strings"
	"testing"
)

func TestIsMimeType(t *testing.T) {
	for _, tc := range []struct {
		mt   string
		want bool
	}{
		{"text/html;profile=mcp-app", true},
		{"Text/HTML ; Profile=\"mcp-app\"", true},
		{"text/html; charset=utf-8; profile=mcp-app", true},
		{"text/html", false},
		{"text/html;profile=other", false},
		{"text/plain;profile=mcp-app", false},
		{"text/html;profile=mcp-app;profile=mcp-app", false},
		{"text/html;profile", false},
		{"", false},
		{`text/html; a="b;c"; profile="mcp-app"`, true},
		{`text/html; profile="mcp-app`, false},
	} {
		if got := isMimeType(tc.mt); got != tc.want {
			t.Errorf("isMimeType(%q) = %v, want %v", tc.mt, got, tc.want)
		}
	}
}

// FuzzMimeType: whatever package mime takes for the mcp-app profile,
// isMimeType takes too.
func FuzzMimeType(f *testing.F) {
	for _, s := range []string{"text/html;profile=mcp-app", `TEXT/html; a="b;c"; profile="mcp-app"`, `text/html; profile="mcp\-app"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, mt string) {
		if strings.Contains(mt, "*") {
			return // RFC 2231 encodings are not taken
		}
		typ, params, err := mime.ParseMediaType(mt)
		if err == nil && typ == "text/html" && params["profile"] == "mcp-app" && !isMimeType(mt) {
			t.Errorf("package mime takes %q for an interface; isMimeType does not", mt)
		}
	})
}
