package secret_test

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/secret"
)

const planted = "PLANTED-s3cr3t-9f8e7d"

// holder has the secret in every kind of place a struct may keep it.
type holder struct {
	Token  secret.String
	Ptr    *secret.String
	List   []secret.String
	Map    map[string]secret.String
	hidden secret.String // reached by reflection, not through methods
	Any    any
}

// renderings is every way a program shows a value: each fmt verb and
// flag, log/slog's text and JSON handlers, and encoding/json.
func renderings(t *testing.T, v any) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10s", "%-8q", "%T"} {
		out[f] = fmt.Sprintf(f, v)
	}
	out["Sprint"] = fmt.Sprint(v)
	out["Sprintln"] = fmt.Sprintln(v)
	var text, js bytes.Buffer
	slog.New(slog.NewTextHandler(&text, nil)).Info("msg", "v", v)
	slog.New(slog.NewJSONHandler(&js, nil)).Info("msg", "v", v)
	slog.New(slog.NewTextHandler(&text, nil)).Info("msg", slog.Group("g", "v", v), slog.Any("a", v))
	slog.New(slog.NewJSONHandler(&js, nil)).Info("msg", slog.Group("g", "v", v), slog.Any("a", v))
	out["slog text"], out["slog json"] = text.String(), js.String()
	b, err := json.Marshal(v)
	out["json"] = string(b)
	if err != nil {
		out["json"] = err.Error()
	}
	return out
}

func assertHidden(t *testing.T, v any, secrets ...string) {
	t.Helper()
	hexed := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		hexed = append(hexed, fmt.Sprintf("%x", s), fmt.Sprintf("%X", s))
	}
	for how, text := range renderings(t, v) {
		for _, s := range append(secrets, hexed...) {
			if strings.Contains(text, s) {
				t.Errorf("%s shows the secret: %s", how, text)
			}
		}
	}
}

func TestNeverPrinted(t *testing.T) {
	s := secret.New(planted)
	for name, v := range map[string]any{
		"value":   s,
		"pointer": &s,
		"holder": holder{Token: s, Ptr: &s, List: []secret.String{s}, Map: map[string]secret.String{"k": s},
			hidden: s, Any: s},
		"holder pointer": &holder{Token: s, hidden: s},
		"nested":         struct{ H holder }{holder{hidden: s}},
	} {
		t.Run(name, func(t *testing.T) { assertHidden(t, v, planted) })
	}
}

func TestKeyNeverPrinted(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k := secret.New[crypto.Signer](key)
	d := key.D.String()
	assertHidden(t, struct{ Key secret.Value[crypto.Signer] }{k}, d, key.D.Text(16))
	if k.Reveal() != crypto.Signer(key) {
		t.Error("Reveal does not give the key back")
	}
}

func TestPrintedForms(t *testing.T) {
	set, empty := secret.New("abcdefgh"), secret.String{}
	for _, tc := range []struct {
		format string
		v      any
		want   string
	}{
		{"%v", set, "[redacted]"},
		{"%s", set, "[redacted]"},
		{"%q", set, `"[redacted]"`},
		{"%#v", set, "secret.Value{[redacted]}"},
		{"%12v|", set, "  [redacted]|"},
		{"%v", empty, ""},
		{"%q", empty, `""`},
		{"%#v", empty, "secret.Value{}"},
		{"%+v", struct{ A, B secret.String }{set, empty}, "{A:[redacted] B:}"},
	} {
		if got := fmt.Sprintf(tc.format, tc.v); got != tc.want {
			t.Errorf("Sprintf(%q): got %q, want %q", tc.format, got, tc.want)
		}
	}
	for _, tc := range []struct {
		v    secret.String
		want string
	}{{set, `"[redacted]"`}, {empty, `""`}} {
		if b, _ := json.Marshal(tc.v); string(b) != tc.want {
			t.Errorf("json: got %s, want %s", b, tc.want)
		}
	}
}

func TestValue(t *testing.T) {
	s := secret.New(planted)
	if s.Reveal() != planted || s.IsZero() {
		t.Errorf("New(%q): Reveal %q, IsZero %v", planted, s.Reveal(), s.IsZero())
	}
	if z := secret.New(""); !z.IsZero() || z.Reveal() != "" || !z.Equal(secret.String{}) {
		t.Error(`New("") is not the empty secret`)
	}
	if !s.Equal(secret.New(planted)) || s.Equal(secret.New("other")) {
		t.Error("Equal compares wrongly")
	}
	if diff := cmp.Diff(struct{ T secret.String }{s}, struct{ T secret.String }{secret.New(planted)}); diff != "" {
		t.Errorf("cmp.Diff of equal secrets: %s", diff)
	}
	var back secret.String
	if err := json.Unmarshal([]byte(`"[redacted]"`), &back); err == nil {
		t.Error("a placeholder decoded into a secret")
	}
}
