package apps

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// FuzzMeta: whatever a server puts in a tool's or a resource's _meta,
// decoding never panics, a resource URI it keeps is ui://, and the CSP
// built from it holds only the directives the host writes and sources
// free of separators, quotes and control characters.
func FuzzMeta(f *testing.F) {
	for _, s := range []string{
		`{"ui":{"resourceUri":"ui://a","visibility":["app"]}}`,
		`{"ui/resourceUri":"ui://b"}`,
		`{"ui":{"csp":{"connectDomains":["https://a.example","*; script-src *"],"resourceDomains":["https://*.c.example"]},"permissions":{"camera":{}},"prefersBorder":false}}`,
		`{"ui":{"csp":{"frameDomains":["http://localhost:1"],"baseUriDomains":["'self'"]}}}`,
		`{"ui":7}`, `null`, `[]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, meta []byte) {
		u := ToolUIOf(&mcpclient.Tool{Meta: json.RawMessage(meta)})
		if u.ResourceURI != "" && !isURI(u.ResourceURI) {
			t.Fatalf("kept resource URI %q", u.ResourceURI)
		}
		m := decodeMeta(meta, meta)
		policy := m.CSP.Policy()
		for _, dir := range strings.Split(policy, "; ") {
			name, srcs, _ := strings.Cut(dir, " ")
			if !strings.HasSuffix(name, "-src") && name != "base-uri" {
				t.Fatalf("unexpected directive %q in %q", name, policy)
			}
			for _, src := range strings.Fields(srcs) {
				if strings.ContainsAny(src, ";,\"") || strings.ContainsFunc(src, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
					t.Fatalf("unsafe source %q in %q", src, policy)
				}
				if strings.HasPrefix(src, "'") && src != "'self'" && src != "'none'" && src != "'unsafe-inline'" {
					t.Fatalf("keyword %q from the server in %q", src, policy)
				}
			}
		}
		if strings.Count(policy, "script-src") != 1 {
			t.Fatalf("script-src repeated: %q", policy)
		}
	})
}
