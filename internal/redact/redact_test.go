package redact_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/redact"
	"github.com/plainmcp/plainmcp/secret"
)

func TestText(t *testing.T) {
	s := func(v ...string) []secret.String {
		out := make([]secret.String, len(v))
		for i, x := range v {
			out[i] = secret.New(x)
		}
		return out
	}
	for _, tc := range []struct {
		name, text string
		secrets    []secret.String
		cut        bool
		want       string
	}{
		{"none", "plain text", nil, false, "plain text"},
		{"every occurrence", "code=abcd1234&again=abcd1234", s("abcd1234"), false, "code=[redacted]&again=[redacted]"},
		{"longest first", "tok=abcd1234efgh", s("abcd", "abcd1234efgh"), false, "tok=[redacted]"},
		{"short ones stay", "status 1 of 123", s("1", "123"), false, "status 1 of 123"},
		{"inside the placeholder", "[redacted] dact", s("dact"), false, "[redacted] dact"},
		{"empty secret", "text", s(""), false, "text"},
		{"cut tail", `{"echo":"refresh-tok`, s("refresh-token-1234"), true, `{"echo":"[redacted]`},
		{"cut tail too short", `{"echo":"ref`, s("refresh-token-1234"), true, `{"echo":"ref`},
		{"whole then tail", "abcd1234 and abcd", s("abcd1234"), true, "[redacted] and [redacted]"},
		{"tail only when cut", "ends with abcd", s("abcd1234"), false, "ends with abcd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := redact.Text(tc.text, tc.secrets...)
			if tc.cut {
				got = redact.Cut(tc.text, tc.secrets...)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func FuzzText(f *testing.F) {
	f.Add("the body echoed code=abcd1234efgh and refresh", "abcd1234efgh", "refresh-token", 30)
	f.Add("[redacted]", "redacted", "dact", 5)
	f.Fuzz(func(t *testing.T, text, a, b string, n int) {
		secrets := []secret.String{secret.New(a), secret.New(b)}
		got := redact.Text(text, secrets...)
		for _, v := range []string{a, b} {
			if len(v) >= redact.MinLen && !strings.Contains(secret.Placeholder, v) &&
				!strings.Contains(v, "[") && strings.Contains(got, v) {
				t.Errorf("Text(%q) = %q still holds %q", text, got, v)
			}
		}
		if n < 0 || n > len(text) {
			return
		}
		cut := redact.Cut(text[:n], secrets...)
		for _, v := range []string{a, b} {
			if len(v) >= redact.MinLen && !strings.ContainsAny(v, "[]") && !strings.Contains(secret.Placeholder, v) {
				for k := redact.MinLen; k < len(v); k++ {
					if strings.HasSuffix(cut, v[:k]) && !strings.HasSuffix(secret.Placeholder, v[:k]) {
						t.Errorf("Cut(%q) = %q ends with %q of %q", text[:n], cut, v[:k], v)
					}
				}
			}
		}
	})
}

func TestError(t *testing.T) {
	tok := secret.New("tok-PLANTED-1")
	base := errors.New("server said: tok-PLANTED-1 is bad")
	err := redact.Error(fmt.Errorf("calling: %w", base), tok)
	if strings.Contains(err.Error(), "PLANTED") || !errors.Is(err, base) {
		t.Errorf("got %q (wraps base: %v)", err, errors.Is(err, base))
	}
	clean := errors.New("nothing secret")
	if redact.Error(clean, tok) != clean || redact.Error(nil, tok) != nil {
		t.Error("an error without secrets was replaced")
	}
}
