package mcpjson

import (
	"fmt"
	"slices"
	"strings"
)

// expandVars replaces the variable references in s: ${NAME} becomes the value
// lookup gives for NAME, and ${NAME:-default} the same, or default when
// NAME is not set (a variable that is set to the empty string expands to
// the empty string). "$${" stands for a literal "${". Nothing else is
// special: "$NAME", "$$" and a lone "$" stay as they are, and a string
// without "${" comes back unchanged.
//
// Each value and default is inserted once and never scanned again, so a
// value that itself contains "${" is kept as it is. refs reports whether s
// held a reference at all (an escape is not one). Errors name a variable,
// never its value.
func expandVars(s string, lookup func(string) (string, bool)) (out string, refs bool, err error) {
	if !strings.Contains(s, "${") {
		return s, false, nil
	}
	var b strings.Builder
	i := 0 // s[:i] is done
	for {
		j := strings.Index(s[i:], "${")
		if j < 0 {
			b.WriteString(s[i:])
			return b.String(), refs, nil
		}
		j += i
		if j > i && s[j-1] == '$' { // "$${": a literal "${"
			b.WriteString(s[i : j-1])
			b.WriteString("${")
			i = j + 2
			continue
		}
		b.WriteString(s[i:j])
		end := strings.IndexByte(s[j+2:], '}')
		if end < 0 {
			return "", refs, fmt.Errorf("unterminated ${ at offset %d (write $${ for a literal ${)", j)
		}
		body := s[j+2 : j+2+end]
		name, def, hasDef := strings.Cut(body, ":-")
		if !validVarName(name) {
			return "", refs, fmt.Errorf("bad variable reference at offset %d: want ${NAME} or ${NAME:-default}, NAME made of letters, digits and _", j)
		}
		if hasDef && strings.Contains(def, "${") {
			return "", refs, fmt.Errorf("${%s:-…}: a default may not hold another reference", name)
		}
		refs = true
		if v, ok := lookup(name); ok {
			b.WriteString(v)
		} else if hasDef {
			b.WriteString(def)
		} else {
			return "", refs, fmt.Errorf("${%s} is not set", name)
		}
		i = j + 2 + end + 1
	}
}

// validVarName reports whether s is a shell-style variable name: a letter
// or _, then letters, digits and _.
func validVarName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// variables returns the names of the environment variables that the
// server's fields referred to as ${NAME}, sorted, each once. Their values
// went where the file put them (a header sent to the server, an
// argument), so a host that asks its user to approve a server from a file
// the user did not write (a project's .mcp.json) names them: String shows
// a header's name, not the reference in its value.
func (s *ServerConfig) variables() []string {
	var names []string
	note := func(name string) (string, bool) {
		names = append(names, name)
		return "", true
	}
	for _, t := range s.templates {
		expandVars(t, note) // the text expanded once already: no error
	}
	slices.Sort(names)
	return slices.Compact(names)
}
