package mcpjson

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A ServerConfig prints, logs and marshals without its secrets. Most are
// hidden by their type: env and header values and the headersHelper
// command are secret.Strings, which print as "[redacted]" through every
// fmt verb, log/slog and encoding/json. The fields that are plain strings
// are shown by String, Format and MarshalJSON as String describes: as
// written where they held a ${NAME} reference, URLs without passwords and
// query values, arguments that look like credentials hidden, and the
// values of the keys plainmcp does not read (Extra), which may be
// anything, as "[redacted]". The methods are on the value type, so a
// *ServerConfig prints alike. log/slog's text handler prints through
// Format, its JSON handler through MarshalJSON.

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
// alike; Format and MarshalJSON hide the same secrets.
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

// shownServer is a ServerConfig's fields, without its methods: what
// %#v and MarshalJSON print.
type shownServer ServerConfig

// shownCopy is s with its plain-string fields as they may be shown.
func (s *ServerConfig) shownCopy() shownServer {
	c := shownServer(*s)
	c.Command, c.Args, c.Cwd = s.shown("command", s.Command), s.shownArgs(), s.shown("cwd", s.Cwd)
	c.URL = redactURL(s.shown("url", s.URL))
	if s.OAuth != nil {
		o := *s.OAuth
		o.AuthServerMetadataURL = redactURL(o.AuthServerMetadataURL)
		c.OAuth = &o
	}
	if s.Extra != nil {
		c.Extra = make(map[string]json.RawMessage, len(s.Extra))
		for k := range s.Extra {
			c.Extra[k] = json.RawMessage(strconv.Quote(redactedText))
		}
	}
	c.templates = nil
	return c
}

// Format makes every fmt verb print String, and %#v the fields in Go
// syntax as they may be shown.
func (s ServerConfig) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprintf(f, "%#v", s.shownCopy())
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), s.String())
}

// MarshalJSON encodes the server as encoding/json encodes a ServerConfig's
// fields — every exported field, under its Go name, the timeouts in
// nanoseconds — as they may be shown.
func (s ServerConfig) MarshalJSON() ([]byte, error) {
	return json.Marshal(s.shownCopy())
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
