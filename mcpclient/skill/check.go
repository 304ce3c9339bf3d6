package skill

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/internal/safe"
)

// Before anything of a skill is read, its entry is checked against the
// SEP's rules and limits; every refusal, then or while the skill loads
// (load.go), is a *Error.

// Check reports why the entry cannot be loaded, or nil if it can: a
// *Error (matching ErrVerification) whose Check is "entry" for
// an entry that breaks the SEP's rules, "dynamic" for a skill that
// publishes no digests, or "limits" for one over 512 files or
// 16 MiB. It reads nothing.
func (sk *Skill) Check() error {
	bad := func(check, format string, args ...any) error {
		return &Error{Skill: sk.URI, Check: check, Reason: fmt.Sprintf(format, args...)}
	}
	if sk.invalid != "" {
		return bad("entry", "%s", sk.invalid)
	}
	scheme, rest, ok := strings.Cut(sk.URI, "://")
	skillPath, isSkill := strings.CutSuffix(rest, "/SKILL.md")
	if !ok || !validScheme(scheme) || !isSkill || !cleanPath(skillPath) {
		return bad("entry", "its URI does not name a <scheme>://<skill-path>/SKILL.md")
	}
	if err := checkSkillName(sk.Name); err != "" {
		return bad("entry", "its name %s", err)
	}
	if last := skillPath[strings.LastIndexByte(skillPath, '/')+1:]; last != sk.Name {
		return bad("entry", "its name is not the last segment of its path")
	}
	if n := utf8.RuneCountInString(sk.Description); n == 0 || n > 1024 {
		return bad("entry", "its description is empty or longer than 1024 characters")
	}
	if sk.Dynamic {
		return bad("dynamic", "the server publishes no digests for its files, so they cannot be verified")
	}
	if sk.SkillMD.URI == "" {
		return bad("entry", "its files do not include its SKILL.md")
	}
	return sk.checkFiles(bad)
}

// checkFiles is Check of the entry's files: inside the skill's directory,
// each listed once, with a well-formed digest, within the limits.
func (sk *Skill) checkFiles(bad func(check, format string, args ...any) error) error {
	if n := 1 + len(sk.Files); n > maxFiles {
		return bad("limits", "%d files, more than %d", n, maxFiles)
	}
	seen := make(map[string]bool, len(sk.Files))
	total := int64(0)
	for _, f := range append([]File{sk.SkillMD}, sk.Files...) {
		rel, inside := strings.CutPrefix(f.URI, sk.root()+"/")
		switch {
		case !inside || !cleanPath(rel):
			return bad("entry", "a file lies outside the skill's directory: %s", safe.Line(f.URI, 80))
		case seen[f.URI]:
			return bad("entry", "a file is listed twice: %s", safe.Line(f.URI, 80))
		case !validDigest(f.Digest):
			return bad("entry", "%s has no sha256:<64 lowercase hex> digest", safe.Line(f.URI, 80))
		case f.Size < 0 || f.Size > maxSize:
			return bad("limits", "%s declares %d bytes", safe.Line(f.URI, 80), f.Size)
		}
		seen[f.URI] = true
		total += f.Size
	}
	if total > maxSize {
		return bad("limits", "%d bytes in all, more than %d", total, maxSize)
	}
	return nil
}

// cleanPath reports whether p is a relative path of one or more segments,
// none of them empty, "." or "..", spelled out or percent-encoded ("%2e"),
// and none holding a backslash (a separator on Windows, where a host may
// write the skill's files out) or a character a terminal acts on (a NUL,
// ESC, a bidi override: see safe.Printable). Such a segment would make a
// path that leaves the skill's directory, or that prints as another.
func cleanPath(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		dots := strings.ReplaceAll(strings.ToLower(seg), "%2e", ".")
		if dots == "" || dots == "." || dots == ".." || strings.Contains(seg, `\`) || safe.Printable(seg) != seg {
			return false
		}
	}
	return true
}

// validScheme reports whether s is a URI scheme (RFC 3986): a letter,
// then letters, digits, "+", "-" and ".".
func validScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// checkSkillName applies the Agent Skills naming rules: 1 to 64
// characters, lowercase letters, digits and hyphens, with no hyphen at
// either end or next to another. It says what is wrong, or "".
func checkSkillName(name string) string {
	if n := utf8.RuneCountInString(name); n == 0 || n > 64 {
		return "is not 1 to 64 characters long"
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") || strings.Contains(name, "--") {
		return "has a hyphen at an end or two in a row"
	}
	for _, r := range name {
		if r != '-' && !unicode.IsDigit(r) && (!unicode.IsLetter(r) || unicode.IsUpper(r) || unicode.IsTitle(r)) {
			return "holds a character other than a lowercase letter, a digit or '-'"
		}
	}
	return ""
}

// validDigest reports whether d is "sha256:" and 64 lowercase hex digits.
func validDigest(d string) bool {
	hex, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
