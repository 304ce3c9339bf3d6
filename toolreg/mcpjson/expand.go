package mcpjson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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

// String describes the server on one line for status output and logs:
// name, type, command and arguments or URL, the names (never the values)
// of env entries and headers, "inheritEnv=false" for a server given the
// safe environment, and the file it came from. It never prints a
// variable's value: a field that held a reference is shown as written, with
// the ${NAME} in place. Literal secrets are hidden too, as far as they can
// be recognized: passwords and query values in URLs, arguments that follow
// or carry a flag named like a token, key, secret or password, "Bearer …"
// and "Basic …" credentials, and long token-like strings.
//
// It is on the value type, so a ServerConfig and a *ServerConfig print
// alike; Format and MarshalJSON (configprint.go) hide the same secrets.
func (s ServerConfig) String() string {
	var parts []string
	parts = append(parts, quoteIfNeeded(s.Name)+":")
	typ := s.Transport()
	parts = append(parts, typ)
	if typ == "stdio" {
		if s.Command != "" {
			parts = append(parts, quoteIfNeeded(s.shown("command", s.Command)))
		}
		for _, a := range s.shownArgs() {
			parts = append(parts, quoteIfNeeded(a))
		}
		if len(s.Env) > 0 {
			parts = append(parts, "env="+strings.Join(sortedNames(s.Env), ","))
		}
		if s.Cwd != "" {
			parts = append(parts, "cwd="+quoteIfNeeded(s.shown("cwd", s.Cwd)))
		}
		if s.SafeEnv {
			parts = append(parts, "inheritEnv=false")
		}
	} else {
		if s.URL != "" {
			parts = append(parts, quoteIfNeeded(redactURL(s.shown("url", s.URL))))
		}
		if len(s.Headers) > 0 {
			parts = append(parts, "headers="+strings.Join(sortedNames(s.Headers), ","))
		}
		if !s.HeadersHelper.IsZero() {
			parts = append(parts, "headersHelper")
		}
		if s.OAuth != nil {
			parts = append(parts, "oauth")
		}
	}
	if s.Disabled {
		parts = append(parts, "disabled")
	}
	if s.Source != "" {
		parts = append(parts, "("+s.Source+")")
	}
	return strings.Join(parts, " ")
}

// shownArgs is the arguments as String shows them: as written where they
// held a reference, with what looks like a credential hidden.
func (s *ServerConfig) shownArgs() []string {
	if s.Args == nil {
		return nil
	}
	out := make([]string, len(s.Args))
	prev := ""
	for i, a := range s.Args {
		a = s.shown("args["+strconv.Itoa(i)+"]", a)
		out[i] = redactArg(prev, a)
		prev = a
	}
	return out
}

// shown is the text to print for a field: as written in the file if it
// held a variable reference, else its value.
func (s *ServerConfig) shown(key, value string) string {
	if t, ok := s.templates[key]; ok {
		return t
	}
	return value
}

const redactedText = "[redacted]"

// redactPiece hides v unless it is made of references, which are safe to
// show as written.
func redactPiece(v string) string {
	if v == "" || strings.Contains(v, "${") {
		return v
	}
	return redactedText
}

// sensitiveName reports whether a flag or variable name suggests that its
// value is a credential.
func sensitiveName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"token", "secret", "pass", "pwd", "key", "auth", "credential", "cookie"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// redactArg hides what looks like a credential in the argument a, given
// the argument before it.
func redactArg(prev, a string) string {
	if strings.Contains(a, "://") {
		return redactURL(a)
	}
	if strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") && sensitiveName(prev) && !strings.HasPrefix(a, "-") {
		return redactPiece(a)
	}
	if k, v, ok := strings.Cut(a, "="); ok && sensitiveName(k) {
		return k + "=" + redactPiece(v)
	}
	for _, scheme := range []string{"bearer ", "basic "} {
		if i := indexFold(a, scheme); i >= 0 {
			return a[:i+len(scheme)] + redactPiece(a[i+len(scheme):])
		}
	}
	if looksLikeToken(a) {
		return redactedText
	}
	return a
}

// indexFold is strings.Index ignoring ASCII case; sub is lower-case ASCII.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		match := true
		for j := 0; j < len(sub) && match; j++ {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			match = c == sub[j]
		}
		if match {
			return i
		}
	}
	return -1
}

// looksLikeToken reports whether s resembles an API key or a JWT: long,
// one word, letters mixed with digits, and not a path, host or address.
func looksLikeToken(s string) bool {
	if strings.HasPrefix(s, "eyJ") && len(s) > 20 {
		return true
	}
	if len(s) < 20 || strings.ContainsAny(s, " \t/\\.@:{") {
		return false
	}
	letters := strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0
	digits := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
	return letters && digits
}

// redactURL hides the password and the query values of a URL. It works on
// the text, so a URL with ${NAME} references in it is handled too.
func redactURL(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		user := authority[:at]
		if name, pass, ok := strings.Cut(user, ":"); ok {
			user = name + ":" + redactPiece(pass)
		} else if !strings.Contains(user, "${") {
			// A lone user part is often a token (https://TOKEN@host).
			user = redactPiece(user)
		}
		authority = user + authority[at:]
	}
	path, query, hasQuery := strings.Cut(tail, "?")
	if !hasQuery {
		return scheme + "://" + authority + tail
	}
	query, fragment, hasFragment := strings.Cut(query, "#")
	pairs := strings.Split(query, "&")
	for i, p := range pairs {
		if k, v, ok := strings.Cut(p, "="); ok {
			pairs[i] = k + "=" + redactPiece(v)
		}
	}
	out := scheme + "://" + authority + path + "?" + strings.Join(pairs, "&")
	if hasFragment {
		out += "#" + fragment
	}
	return out
}

// quoteIfNeeded quotes s if it would not read as one word, or holds what
// a person cannot see or a terminal acts on (C1 controls such as CSI,
// bidirectional overrides, zero-width characters, bytes not UTF-8):
// strconv.Quote writes each of those as an escape.
func quoteIfNeeded(s string) string {
	if s == "" || !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool {
		return r <= ' ' || r == '"' || r == '\'' || !unicode.IsPrint(r)
	}) {
		return strconv.Quote(s)
	}
	return s
}

// sortedNames is m's keys, sorted and quoted if need be.
func sortedNames[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, quoteIfNeeded(k))
	}
	slices.Sort(keys)
	return keys
}
