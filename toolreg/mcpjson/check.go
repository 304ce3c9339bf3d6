package mcpjson

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// check validates what depends on the server's type, and the values that
// need no expansion.
func (p *configParser) check(s *ServerConfig) error {
	fail := func(key, format string, args ...any) error {
		return p.errorf(s.Name, key, format, args...)
	}
	if key, msg := typeMismatch(s); key != "" {
		return fail(key, "%s", msg)
	}
	for key, v := range map[string]string{"command": s.Command, "cwd": s.Cwd} {
		if strings.ContainsRune(v, 0) {
			return fail(key, "contains a NUL byte")
		}
	}
	if s.Type == "stdio" && !s.Disabled && len(s.Args) == 0 && len(strings.Fields(s.Command)) > 1 &&
		!programExists(s.Command, s.Cwd) {
		return fail("command", "%s", s.oneStringCommand())
	}
	for i, a := range s.Args {
		if strings.ContainsRune(a, 0) {
			return fail("args["+strconv.Itoa(i)+"]", "contains a NUL byte")
		}
	}
	if msg := checkURL(s.URL); msg != "" {
		return fail("url", "%s", msg)
	}
	for _, list := range []struct {
		key      string
		patterns []string
	}{{"allow", s.Allow}, {"deny", s.Deny}} {
		for i, pat := range list.patterns {
			if pat == "" {
				return fail(list.key+"["+strconv.Itoa(i)+"]", "an empty pattern")
			}
		}
	}
	return nil
}

// typeMismatch names a key that the server's type needs and lacks, or
// has and may not, and says what is wrong with it; "" if none.
func typeMismatch(s *ServerConfig) (key, msg string) {
	if s.Type == "stdio" {
		return stdioMismatch(s)
	}
	return remoteMismatch(s)
}

// stdioMismatch is typeMismatch for a stdio server.
func stdioMismatch(s *ServerConfig) (key, msg string) {
	switch {
	case s.Command == "" && !s.Disabled && s.URL != "":
		return "command", `missing; a server with a url needs "type": "http" or "sse"`
	case s.Command == "" && !s.Disabled:
		return "command", "missing or empty"
	case s.URL != "":
		return "url", "applies only to http and sse servers"
	case len(s.Headers) > 0:
		return "headers", "apply only to http and sse servers"
	case s.HeadersHelper != "":
		return "headersHelper", "applies only to http and sse servers"
	}
	return "", ""
}

// remoteMismatch is typeMismatch for an http or sse server.
func remoteMismatch(s *ServerConfig) (key, msg string) {
	switch {
	case s.Command != "":
		return "command", "applies only to stdio servers"
	case len(s.Args) > 0:
		return "args", "apply only to stdio servers"
	case len(s.Env) > 0:
		return "env", "applies only to stdio servers"
	case s.Cwd != "":
		return "cwd", "applies only to stdio servers"
	case s.URL == "" && !s.Disabled:
		return "url", "missing or empty"
	case s.SafeEnv:
		return "inheritEnv", "applies only to stdio servers"
	}
	return "", ""
}

// checkURL says what is wrong with a server's URL, if it is set; the URL
// may hold a key, so the message does not quote it.
func checkURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "not a valid URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "want an http or https URL"
	case u.Host == "":
		return "no host"
	}
	return ""
}

// checkEnv checks the expanded env entries and makes them a map.
func (p *configParser) checkEnv(server string, env []stringMember) (map[string]string, error) {
	if env == nil {
		return nil, nil
	}
	m := make(map[string]string, len(env))
	for _, kv := range env {
		switch {
		case kv.key == "":
			return nil, p.errorf(server, "env", "a variable name is empty")
		case strings.ContainsAny(kv.key, "=\x00"):
			return nil, p.errorf(server, "env", "the name %q contains = or a NUL byte", kv.key)
		case strings.ContainsRune(kv.val, 0):
			return nil, p.errorf(server, "env."+kv.key, "the value contains a NUL byte")
		}
		m[kv.key] = kv.val
	}
	return m, nil
}

// checkHeaders checks the expanded headers and makes them a map.
func (p *configParser) checkHeaders(server string, headers []stringMember) (map[string]string, error) {
	if headers == nil {
		return nil, nil
	}
	m := make(map[string]string, len(headers))
	names := map[string]bool{}
	for _, h := range headers {
		key := "headers." + h.key
		lower := strings.ToLower(h.key)
		switch {
		case !isHeaderToken(h.key):
			return nil, p.errorf(server, "headers", "%q is not a valid header name", h.key)
		case names[lower]:
			return nil, p.errorf(server, key, "appears twice (names ignore case)")
		case strings.ContainsAny(h.val, "\r\n\x00"):
			return nil, p.errorf(server, key, "the value contains a line break or NUL byte")
		}
		names[lower] = true
		m[h.key] = h.val
	}
	return m, nil
}

// isHeaderToken reports whether s is an HTTP token (RFC 9110).
func isHeaderToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// programExists reports whether command, which holds spaces, names a
// program after all, as exec.Command would find it: a name without a path
// separator is looked up in PATH; a path (relative to cwd, if it is
// relative and cwd is set, as the server is started) must exist. So a
// program whose path holds spaces is run as it is.
func programExists(command, cwd string) bool {
	if filepath.Base(command) == command {
		_, err := exec.LookPath(command)
		return err == nil
	}
	path := command
	if cwd != "" && !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	_, err := os.Stat(path)
	return err == nil
}

// oneStringCommand is the error for a command line written in one string
// ("npx -y pkg"), which no shell splits here: it shows the command and
// args to write instead, hiding what String hides. When the command held
// a variable reference, its words are not shown.
func (s *ServerConfig) oneStringCommand() string {
	const why = "one string with spaces that names no program, and plainmcp runs no shell to split it"
	if _, ok := s.templates["command"]; ok {
		return why + `: use "args", with the program alone in "command" and each argument in "args"`
	}
	words := strings.Fields(s.Command)
	quoted := make([]string, len(words))
	prev := ""
	for i, w := range words {
		w = redactArg(prev, w)
		prev = words[i]
		words[i], quoted[i] = w, strconv.Quote(w)
	}
	return fmt.Sprintf(`%q is %s: use "args", as in "command": %s, "args": [%s]`,
		strings.Join(words, " "), why, quoted[0], strings.Join(quoted[1:], ", "))
}
