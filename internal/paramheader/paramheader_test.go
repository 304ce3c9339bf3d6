package paramheader

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		want         string // "name=path,…" or "error: …"
	}{
		{"none", `{"type":"object","properties":{"q":{"type":"string"}}}`, ""},
		{"top level", `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`, "Region=region"},
		{"nested", `{"type":"object","properties":{"cfg":{"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}}}}`, "N=cfg.n"},
		{"boolean", `{"properties":{"f":{"type":"boolean","x-mcp-header":"Flag"}}}`, "Flag=f"},
		{"a property named x-mcp-header", `{"properties":{"x-mcp-header":{"type":"string"}}}`, ""},
		{"empty", `{"properties":{"a":{"type":"string","x-mcp-header":""}}}`, "error: not an HTTP header name"},
		{"space", `{"properties":{"a":{"type":"string","x-mcp-header":"My Header"}}}`, "error: not an HTTP header name"},
		{"colon", `{"properties":{"a":{"type":"string","x-mcp-header":"A:B"}}}`, "error: not an HTTP header name"},
		{"non-ASCII", `{"properties":{"a":{"type":"string","x-mcp-header":"Région"}}}`, "error: not an HTTP header name"},
		{"control", `{"properties":{"a":{"type":"string","x-mcp-header":"A\u0007"}}}`, "error: not an HTTP header name"},
		{"not a string", `{"properties":{"a":{"type":"string","x-mcp-header":7}}}`, "error: not a string"},
		{"object type", `{"properties":{"a":{"type":"object","x-mcp-header":"A"}}}`, "error: not string, integer or boolean"},
		{"array type", `{"properties":{"a":{"type":"array","x-mcp-header":"A"}}}`, "error: not string, integer or boolean"},
		{"null type", `{"properties":{"a":{"type":"null","x-mcp-header":"A"}}}`, "error: not string, integer or boolean"},
		{"number type", `{"properties":{"a":{"type":"number","x-mcp-header":"A"}}}`, "error: not string, integer or boolean"},
		{"no type", `{"properties":{"a":{"x-mcp-header":"A"}}}`, "error: not string, integer or boolean"},
		{"duplicate", `{"properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"string","x-mcp-header":"A"}}}`, "error: used twice"},
		{"duplicate case", `{"properties":{"a":{"type":"string","x-mcp-header":"Tenant"},"b":{"type":"string","x-mcp-header":"TENANT"}}}`, "error: used twice"},
		{"under items", `{"properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"A"}}}}`, "error: reached through properties alone"},
		{"under oneOf", `{"properties":{"a":{"oneOf":[{"type":"string","x-mcp-header":"A"}]}}}`, "error: reached through properties alone"},
		{"under $defs", `{"$defs":{"d":{"type":"string","x-mcp-header":"A"}},"properties":{"a":{"$ref":"#/$defs/d"}}}`, "error: reached through properties alone"},
		{"at the root", `{"type":"string","x-mcp-header":"A"}`, "error: reached through properties alone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs, err := Of(json.RawMessage(tc.schema))
			var got string
			if err != nil {
				got = "error: " + err.Error()
				if !strings.HasPrefix(tc.want, "error: ") || !strings.Contains(got, strings.TrimPrefix(tc.want, "error: ")) {
					t.Errorf("got %q, want %q", got, tc.want)
				}
				return
			}
			var parts []string
			for _, h := range hs {
				parts = append(parts, h.Name+"="+strings.Join(h.Path, "."))
			}
			if got = strings.Join(parts, ","); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestValues(t *testing.T) {
	specs := []Header{
		{"Region", []string{"region"}}, {"Greeting", []string{"greeting"}}, {"Count", []string{"n"}},
		{"Big", []string{"big"}}, {"Flag", []string{"flag"}}, {"Nothing", []string{"none"}},
		{"Absent", []string{"absent"}}, {"Deep", []string{"cfg", "tenant"}},
		{"Float", []string{"float"}}, {"Exp", []string{"exp"}}, {"NegZero", []string{"negzero"}},
		{"True", []string{"yes"}}, {"List", []string{"list"}}, {"Obj", []string{"cfg"}},
		{"ThroughNull", []string{"none", "x"}}, {"ThroughString", []string{"region", "x"}},
		{"ThroughList", []string{"list", "x"}},
	}
	// The tools/call params as the request encoded them: the arguments are
	// read from those bytes, never encoded again. Values go to the
	// transport as plain text; it encodes what a header cannot carry.
	params := json.RawMessage(`{"name":"t","arguments":{"region":"us-west1","greeting":"Hello, 世界","n":42,"big":9007199254740991,"flag":false,"none":null,"cfg":{"tenant":" padded "},"float":1.5,"exp":1e3,"negzero":-0,"yes":true,"list":[1]}}`)
	h, err := Values(specs, params)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Mcp-Param-Region":   "us-west1",
		"Mcp-Param-Greeting": "Hello, 世界",
		"Mcp-Param-Count":    "42",
		"Mcp-Param-Big":      "9007199254740991",
		"Mcp-Param-Flag":     "false",
		"Mcp-Param-Deep":     " padded ",
		"Mcp-Param-Float":    "1.5",
		"Mcp-Param-Exp":      "1e3",
		"Mcp-Param-NegZero":  "0",
		"Mcp-Param-True":     "true",
	}
	if diff := cmp.Diff(want, h); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
}
