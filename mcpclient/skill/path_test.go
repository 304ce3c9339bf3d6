package skill

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/safe"
)

// A file path is a path within the skill's directory however a host
// reads it: a backslash (Windows' separator), a percent-encoded dot
// segment, a NUL or another control character in a segment refuse the
// entry, and the refusal quotes the server's URIs printably.
func TestSkillPathsStayInside(t *testing.T) {
	d := "sha256:" + strings.Repeat("ab", 32)
	for _, uri := range []string{
		`skill://acme/refunds/..\..\..\evil.md`,
		`skill://acme/refunds/a\b.md`,
		"skill://acme/refunds/%2e%2e/%2E%2e/evil.md",
		"skill://acme/refunds/.%2e/evil.md",
		"skill://acme/refunds/a\x00.md",
		"skill://acme/refunds/\x1b[2J\x1b]0;owned\a.md",
		"skill://acme/refunds/\u202egpj.md",
	} {
		sk := &Skill{URI: "skill://acme/refunds/SKILL.md", Name: "refunds", Description: "Refunds.", Frontmatter: json.RawMessage(`{}`),
			SkillMD: File{"skill://acme/refunds/SKILL.md", d, 10},
			Files:   []File{{uri, d, 5}}}
		err := sk.Check()
		var se *Error
		if !errors.As(err, &se) || se.Check != "entry" {
			t.Errorf("%q: Check = %v, want the entry check", uri, err)
			continue
		}
		if msg := err.Error(); safe.Printable(msg) != msg {
			t.Errorf("%q: the error holds characters a terminal acts on: %q", uri, msg)
		}
	}
	// The skill's own path too, whose refusal names it.
	sk := &Skill{URI: "skill://\x1b[31macme/refunds/SKILL.md", Name: "refunds", Description: "Refunds."}
	if err := sk.Check(); err == nil || safe.Printable(err.Error()) != err.Error() {
		t.Errorf("Check = %q", err)
	}
}

// A scheme is a URI scheme: letters, digits, "+", "-", ".".
func TestSkillSchemeIsAScheme(t *testing.T) {
	for _, uri := range []string{"\x1b[31mskill://refunds/SKILL.md", "1skill://refunds/SKILL.md", "sk ill://refunds/SKILL.md"} {
		sk := &Skill{URI: uri, Name: "refunds", Description: "Refunds."}
		var se *Error
		if err := sk.Check(); !errors.As(err, &se) || !strings.Contains(se.Reason, "does not name") {
			t.Errorf("%q: Check = %v", uri, err)
		}
	}
	sk := &Skill{URI: "my-skill+x.v2://refunds/SKILL.md", Name: "refunds", Description: "Refunds."}
	if err := sk.Check(); err == nil || strings.Contains(err.Error(), "does not name") {
		t.Errorf("a valid scheme refused: %v", err)
	}
}
