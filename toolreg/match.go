package toolreg

import "strings"

// A ToolFilter chooses which of a server's tools the registry exposes. Its
// patterns match the tool names the server lists, case-sensitively, not the
// exposed names.
//
// A pattern is a tool name in which '*' stands for any run of characters,
// none included. No other character is special: "fs.read", "a/b", "[x]",
// "?" and "a\b" match only themselves. Every string is a valid pattern, so
// there is nothing to validate.
//
// The zero ToolFilter permits every tool. A ToolFilter is a value; Permits
// is safe for concurrent use as long as nobody modifies the slices.
type ToolFilter struct {
	// Allow, if not empty, lists the tools to expose: a tool matching
	// none of these patterns is left out.
	Allow []string
	// Deny lists tools to leave out. It wins over Allow.
	Deny []string
}

// Permits reports whether the filter lets the tool through: it matches a
// pattern of Allow (or Allow is empty) and no pattern of Deny.
func (f ToolFilter) Permits(tool string) bool {
	if len(f.Allow) > 0 && !matchAny(f.Allow, tool) {
		return false
	}
	return !matchAny(f.Deny, tool)
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if matchGlob(p, name) {
			return true
		}
	}
	return false
}

// matchGlob reports whether name matches pattern, in which only '*' is
// special. The text before the first '*' must begin the name and the text
// after the last must end it; each piece between them is found leftmost in
// what remains, which leaves the most room for the pieces after it. It
// never backtracks, so it takes at most len(pattern)×len(name) steps.
func matchGlob(pattern, name string) bool {
	head, rest, ok := strings.Cut(pattern, "*")
	if !ok {
		return pattern == name
	}
	if !strings.HasPrefix(name, head) {
		return false
	}
	name = name[len(head):]
	for {
		piece, after, more := strings.Cut(rest, "*")
		if !more {
			return strings.HasSuffix(name, piece) // the last piece ends the name
		}
		i := strings.Index(name, piece)
		if i < 0 {
			return false
		}
		name, rest = name[i+len(piece):], after
	}
}
