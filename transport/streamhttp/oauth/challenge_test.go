package oauth

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseChallenges(t *testing.T) {
	p := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		values []string
		want   []authChallenge
	}{
		{"bearer with metadata", []string{`Bearer resource_metadata="https://x.example/.well-known/oauth-protected-resource", scope="a b"`},
			[]authChallenge{{Scheme: "Bearer", Params: p("resource_metadata", "https://x.example/.well-known/oauth-protected-resource", "scope", "a b")}}},
		{"bare scheme", []string{"Bearer"}, []authChallenge{{Scheme: "Bearer", Params: p()}}},
		{"names lower-cased, tokens unquoted", []string{`bearer Error=insufficient_scope,SCOPE="x"`},
			[]authChallenge{{Scheme: "bearer", Params: p("error", "insufficient_scope", "scope", "x")}}},
		{"escapes and commas in quotes", []string{`Bearer realm="a \"b\", c\\d"`},
			[]authChallenge{{Scheme: "Bearer", Params: p("realm", `a "b", c\d`)}}},
		{"several challenges", []string{`DPoP algs="ES256 RS256", error="use_dpop_nonce", Bearer realm="r", Basic dXNlcjpwYXNz==`},
			[]authChallenge{
				{Scheme: "DPoP", Params: p("algs", "ES256 RS256", "error", "use_dpop_nonce")},
				{Scheme: "Bearer", Params: p("realm", "r")},
				{Scheme: "Basic", Token68: "dXNlcjpwYXNz==", Params: p()},
			}},
		{"several header values", []string{"Negotiate", `Bearer scope = "s" ,, `},
			[]authChallenge{{Scheme: "Negotiate", Params: p()}, {Scheme: "Bearer", Params: p("scope", "s")}}},
		{"a DPoP challenge before the Bearer one", []string{`DPoP algs="ES256", Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", scope="files:read"`},
			[]authChallenge{
				{Scheme: "DPoP", Params: p("algs", "ES256")},
				{Scheme: "Bearer", Params: p("resource_metadata", "https://mcp.example/.well-known/oauth-protected-resource/mcp", "scope", "files:read")},
			}},
		{"first of a repeated name wins", []string{`Bearer scope="a", scope="b"`},
			[]authChallenge{{Scheme: "Bearer", Params: p("scope", "a")}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseChallenges(tc.values)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestParseChallengesRefusesMalformed(t *testing.T) {
	for _, v := range []string{
		`Bearer realm="unterminated`,
		`Bearer a=b, c=`,
		`Bearer realm="a" scope="b"`,
		`=x`,
		`Bearer a=b, =c`,
		`Bearer"x"`,
	} {
		if _, err := parseChallenges([]string{v}); !errors.Is(err, errChallenge) {
			t.Errorf("%q: got %v, want errChallenge", v, err)
		}
	}
}

func FuzzWWWAuthenticate(f *testing.F) {
	for _, s := range []string{
		`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"`,
		`DPoP algs="ES256", Bearer error="insufficient_scope", Basic abc==`,
		`Bearer realm="a \"b\""`, `Negotiate`, `, ,Bearer a=b,`, `Bearer realm="x`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := parseChallenges([]string{s})
		if err != nil && !errors.Is(err, errChallenge) {
			t.Fatalf("error %v does not wrap errChallenge", err)
		}
		for _, c := range cs {
			if c.Scheme == "" || !strings.Contains(s, c.Scheme) {
				t.Fatalf("scheme %q is not a token of the input", c.Scheme)
			}
			for k := range c.Params {
				if k != strings.ToLower(k) || !strings.Contains(strings.ToLower(s), k) {
					t.Fatalf("parameter name %q is not a lower-cased token of the input", k)
				}
			}
		}
		if err == nil {
			// What parsed once parses the same when joined with itself.
			again, err := parseChallenges([]string{s, s})
			if err != nil || len(again) != 2*len(cs) {
				t.Fatalf("twice: got %d challenges (%v), want %d", len(again), err, 2*len(cs))
			}
		}
	})
}
