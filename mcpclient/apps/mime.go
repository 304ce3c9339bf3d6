package apps

import "strings"

// isMimeType reports whether mt is text/html with the mcp-app profile,
// however the server spelled it: any case for the type and the parameter's
// name, spaces around the semicolons, a quoted value, other parameters.
// (A media type scanner of its own, not package mime's, which would link
// MIME tables into every program that links mcpclient; RFC 2231 encoded
// values are not taken.)
func isMimeType(mt string) bool {
	typ, rest, _ := strings.Cut(mt, ";")
	if !strings.EqualFold(strings.TrimSpace(typ), "text/html") {
		return false
	}
	profile := false
	for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
		name, value, more, ok := mediaParam(rest)
		if !ok {
			return false // malformed, as package mime would say
		}
		if strings.EqualFold(name, "profile") {
			if profile || value != "mcp-app" {
				return false // a second profile, or another one
			}
			profile = true
		}
		rest = more
	}
	return profile
}

// mediaParam reads the parameter at the start of s, `name=value` or
// `name="quoted value"`, and returns what follows its ';'.
func mediaParam(s string) (name, value, rest string, ok bool) {
	name, s, ok = strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t\"") {
		return "", "", "", false
	}
	s = strings.TrimLeft(s, " \t")
	if !strings.HasPrefix(s, `"`) {
		value, rest, _ = strings.Cut(s, ";")
		return name, strings.TrimSpace(value), rest, true
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '"':
			after := strings.TrimSpace(s[i+1:])
			if after != "" && after[0] != ';' {
				return "", "", "", false
			}
			return name, b.String(), strings.TrimPrefix(after, ";"), true
		default:
			b.WriteByte(c)
		}
	}
	return "", "", "", false // the quote never closed
}
