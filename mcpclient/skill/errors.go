package skill

import (
	"errors"
	"fmt"
	"strings"

	"github.com/plainmcp/plainmcp/internal/safe"
)

// This file holds the package's errors: a host tells a server without
// the extension (ErrNotOffered) from a refused skill (ErrVerification,
// a *Error that names the check).

// ErrNotOffered is returned by All and Get when the server did not
// declare the skills extension: the SEP forbids asking.
var ErrNotOffered = errors.New("skill: the server does not offer the skills extension")

// ErrVerification is matched (errors.Is) by every error that refuses
// a skill or one of its files: a *Error, from Skill.Check or from
// Load and Loaded.ReadFile as they load a skill.
var ErrVerification = errors.New("skill: verification failed")

// Error says why a skill, or one file of it, was refused. Check names
// what failed:
//
//	"entry"        the listing's entry breaks the SEP's rules (Reason says how)
//	"dynamic"      the entry publishes no digests to verify against
//	"limits"       the entry is over 512 files or 16 MiB in all
//	"content"      the server's answer holds no single content for the file
//	"size"         the bytes received are not as many as the entry declares
//	"digest"       their SHA-256 is not the entry's digest
//	"frontmatter"  the SKILL.md's frontmatter does not parse (Err says why)
//	               or differs from the entry's (Field names the field)
//	"unlisted"     the file asked for is not one the entry lists
type Error struct {
	Skill  string // the skill's URI: its SKILL.md
	File   string // the file refused, when it was a file's content
	Check  string
	Field  string
	Reason string
	Err    error
}

func (e *Error) Error() string {
	var b strings.Builder
	// The URIs are the server's: quoted on one line, escaped, cut short.
	fmt.Fprintf(&b, "skill %s", safe.Line(e.Skill, 200))
	if e.File != "" && e.File != e.Skill {
		fmt.Fprintf(&b, ": file %s", safe.Line(e.File, 200))
	}
	fmt.Fprintf(&b, ": %s check failed", e.Check)
	if e.Reason != "" {
		b.WriteString(": " + e.Reason)
	}
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

// Is makes errors.Is(err, ErrVerification) true.
func (e *Error) Is(target error) bool { return target == ErrVerification }

// Unwrap returns the frontmatter's parse error, if that is what failed.
func (e *Error) Unwrap() error { return e.Err }
