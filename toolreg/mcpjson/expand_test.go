package mcpjson

import (
	"slices"
	"strings"
	"testing"
)

// testEnv is a lookup over a fixed set of variables.
func testEnv(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

var expandVarsEnv = testEnv(map[string]string{
	"HOME":  "/home/u",
	"TOKEN": "t0k3n",
	"EMPTY": "",
	"REF":   "${TOKEN}",    // a value that looks like a reference
	"ESC":   "$${TOKEN}",   // a value that looks like an escape
	"DOLS":  "a$$b$",       // dollars in a value
	"OPEN":  "${",          // half a reference
	"SP":    "two words",   // spaces
	"NL":    "line\nbreak", // a control character
})

func TestExpandVars(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		refs           bool
	}{
		{"empty", "", "", false},
		{"plain", "npx -y server", "npx -y server", false},
		{"dollar alone", "$", "$", false},
		{"dollar at end", "price$", "price$", false},
		{"bare name is not a reference", "$HOME/x", "$HOME/x", false},
		{"double dollar stays", "pa$$word", "pa$$word", false},
		{"brace without dollar", "{HOME}", "{HOME}", false},
		{"variable", "${HOME}", "/home/u", true},
		{"variable in text", "dir=${HOME}/x", "dir=/home/u/x", true},
		{"adjacent variables", "${HOME}${TOKEN}", "/home/ut0k3n", true},
		{"set but empty", "[${EMPTY}]", "[]", true},
		{"set but empty ignores default", "[${EMPTY:-d}]", "[]", true},
		{"default used", "${NOPE:-fallback}", "fallback", true},
		{"default not used", "${HOME:-fallback}", "/home/u", true},
		{"empty default", "[${NOPE:-}]", "[]", true},
		{"default with text", "${NOPE:-http://localhost:8080/a b}", "http://localhost:8080/a b", true},
		{"default with dollar", "${NOPE:-$x$$}", "$x$$", true},
		{"default with another :-", "${NOPE:-a:-b}", "a:-b", true},
		{"escape", "$${HOME}", "${HOME}", false},
		{"escape then variable", "$${HOME}${HOME}", "${HOME}/home/u", true},
		{"dollar before escape", "$$${HOME}", "$${HOME}", false},
		{"escaped unterminated", "$${", "${", false},
		{"value is not expanded again", "${REF}", "${TOKEN}", true},
		{"escape-like value is kept", "${ESC}", "$${TOKEN}", true},
		{"dollars in value kept", "${DOLS}", "a$$b$", true},
		{"half reference in value", "${OPEN}HOME}", "${HOME}", true},
		{"value with spaces", "${SP}", "two words", true},
		{"value with newline", "${NL}", "line\nbreak", true},
		{"underscore and digits", "${_A1:-ok}", "ok", true},
		{"unicode around", "é${HOME}ü", "é/home/uü", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, refs, err := expandVars(tc.in, expandVarsEnv)
			if err != nil {
				t.Fatalf("expandVars(%q): %v", tc.in, err)
			}
			if got != tc.want || refs != tc.refs {
				t.Errorf("expandVars(%q) = %q, %v; want %q, %v", tc.in, got, refs, tc.want, tc.refs)
			}
		})
	}
}

func TestExpandVarsErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"missing", "${NOPE}", "${NOPE} is not set"},
		{"missing after text", "a${HOME}b${NOPE}", "${NOPE} is not set"},
		{"unterminated", "x${HOME", "unterminated ${ at offset 1"},
		{"unterminated default", "${NOPE:-abc", "unterminated ${ at offset 0"},
		{"empty name", "${}", "bad variable reference at offset 0"},
		{"empty name with default", "${:-x}", "bad variable reference at offset 0"},
		{"name with a dash", "${MY-VAR}", "bad variable reference at offset 0"},
		{"name starts with a digit", "ab${1X}", "bad variable reference at offset 2"},
		{"shell's other operators", "${NOPE-x}", "bad variable reference"},
		{"colon without dash", "${NOPE:x}", "bad variable reference"},
		{"space in name", "${ HOME}", "bad variable reference"},
		{"nested", "${NOPE:-${HOME}}", "${NOPE:-…}: a default may not hold another reference"},
		{"nested even when set", "${HOME:-${TOKEN}}", "a default may not hold another reference"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := expandVars(tc.in, expandVarsEnv)
			if err == nil {
				t.Fatalf("expandVars(%q) = %q, want an error", tc.in, got)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("expandVars(%q) error %q, want it to contain %q", tc.in, err, tc.want)
			}
			if strings.Contains(err.Error(), "t0k3n") || strings.Contains(err.Error(), "/home/u") {
				t.Errorf("error %q holds a variable's value", err)
			}
		})
	}
}

func FuzzExpand(f *testing.F) {
	for _, s := range []string{
		"", "plain", "$", "$$", "${", "$${", "$$${A}", "${A}", "${A:-}", "${A:-d}",
		"${NOPE:-x}", "${A}${B}", "${A:-${B}}", "${1}", "}${A}{", "${A", "é${A}ü",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Values that look like references, and a secret to look for.
		plain := func(string) (string, bool) { return "V", true }
		tricky := func(string) (string, bool) { return "${A}$${SECRET-0xC0FFEE}", true }
		unset := func(string) (string, bool) { return "", false }

		got, refs, err := expandVars(s, plain)
		if !strings.Contains(s, "${") {
			if err != nil || refs || got != s {
				t.Fatalf("expandVars(%q) = %q, %v, %v; want the string unchanged", s, got, refs, err)
			}
		}
		// Whether a string expands depends on its text, not on what the
		// variables hold: a value is never expanded again.
		got2, refs2, err2 := expandVars(s, tricky)
		if (err == nil) != (err2 == nil) || refs != refs2 {
			t.Fatalf("expandVars(%q): error %v with plain values, %v with tricky ones", s, err, err2)
		}
		if err2 != nil && strings.Contains(err2.Error(), "0xC0FFEE") && !strings.Contains(s, "0xC0FFEE") {
			t.Fatalf("expandVars(%q): error %q holds a value", s, err2)
		}
		if err == nil && !refs && got != got2 {
			t.Fatalf("expandVars(%q): no references, yet %q and %q", s, got, got2)
		}
		// With every variable unset, a string that expands has only
		// defaults in its references.
		if _, _, err3 := expandVars(s, unset); err3 == nil && err != nil {
			t.Fatalf("expandVars(%q): fails with set variables (%v), not with unset ones", s, err)
		}
	})
}

// Variables names each variable a server's fields referred to, once, and
// none that an escape only spelled.
func TestVariablesNamesTheReferences(t *testing.T) {
	env := func(name string) (string, bool) { return "value-of-" + name, name != "UNSET" }
	cfg, err := ParseConfig([]byte(`{"mcpServers": {
		"web": {"type": "http", "url": "https://h.example/${B}/$${NOT}", "headers": {"X": "${A} ${B}"}},
		"cli": {"command": "x", "args": ["${C:-c}", "--k=${UNSET:-none}"], "env": {"K": "${A}"}},
		"plain": {"command": "x", "args": ["$${NOT}"]}}}`), "t.json", &ConfigOptions{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{"web": {"A", "B"}, "cli": {"A", "C", "UNSET"}, "plain": nil} {
		if got := cfg.Server(name).variables(); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
