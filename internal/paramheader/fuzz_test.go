package paramheader

import (
	"strings"
	"testing"
)

// FuzzOf feeds Of and Values what a server controls (a tool's input
// schema) and what a caller does (its arguments): neither panics, every
// header Of accepts is a token used once, and Values sends only those.
func FuzzOf(f *testing.F) {
	f.Add(`{"properties":{"r":{"type":"string","x-mcp-header":"Region"},"c":{"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}}}}`,
		`{"arguments":{"r":"eu","c":{"n":7}}}`)
	f.Add(`{"properties":{"a":{"oneOf":[{"x-mcp-header":"A"}]}}}`, `{"arguments":{"a":[1]}}`)
	f.Fuzz(func(t *testing.T, schema, params string) {
		hs, err := Of([]byte(schema))
		if err != nil {
			return
		}
		names := map[string]bool{}
		for _, h := range hs {
			if !isToken(h.Name) || len(h.Path) == 0 || names[strings.ToLower(h.Name)] {
				t.Fatalf("Of accepted %+v from %q", h, schema)
			}
			names[strings.ToLower(h.Name)] = true
		}
		vals, err := Values(hs, []byte(params))
		if err != nil {
			return
		}
		for k := range vals {
			if !names[strings.ToLower(strings.TrimPrefix(k, "Mcp-Param-"))] {
				t.Fatalf("Values sent %q, not one of %v", k, names)
			}
		}
	})
}
