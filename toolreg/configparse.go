package toolreg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// configParser holds what every part of one file's parse needs.
type configParser struct {
	source  string
	at      string // where in the file the servers are, if not at the top: projects["/src/app"].mcpServers
	env     func(string) (string, bool)
	safeEnv bool         // the default of SafeEnv
	log     *slog.Logger // nil is silent
}

// errorf makes an ErrConfig error located at the file, the place of the
// servers in it (if not the top), the server (if any) and the key (if
// any).
func (p *configParser) errorf(server, key, format string, args ...any) error {
	var loc []string
	if p.source != "" {
		loc = append(loc, p.source)
	}
	if p.at != "" {
		loc = append(loc, p.at)
	}
	if server != "" {
		loc = append(loc, "server "+strconv.Quote(server))
	}
	if key != "" {
		loc = append(loc, key)
	}
	loc = append(loc, fmt.Sprintf(format, args...))
	return &configError{msg: strings.Join(loc, ": ")}
}

// jsonError describes a JSON syntax error by line and column.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return "invalid JSON: " + err.Error()
	}
	// Offset counts the bytes read, the bad one included.
	before := data[:max(0, min(int(se.Offset)-1, len(data)))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, se.Error())
}

// serverKeys are the keys of a server that plainmcp reads.
var serverKeys = map[string]bool{
	"type": true, "command": true, "args": true, "env": true, "cwd": true,
	"url": true, "headers": true, "timeout": true, "toolTimeout": true,
	"disabled": true, "allow": true, "deny": true, "inheritEnv": true, "protocolVersion": true,
	"headersHelper": true, "oauth": true,
}

// knownType is the transport a server's "type" names, or "" if none.
func knownType(t string) string {
	switch t {
	case "stdio", "http", "sse":
		return t
	case "streamable-http", "streamableHttp": // as some other clients write it
		return "http"
	}
	return ""
}

// server parses, expands and checks the server called name.
func (p *configParser) server(name string, raw json.RawMessage) (*ServerConfig, error) {
	fail := func(key, format string, args ...any) error {
		return p.errorf(name, key, format, args...)
	}
	if name == "" {
		return nil, p.errorf("", "", `server "": want a non-empty name`)
	}
	if strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, fail("", "want a name without control characters")
	}
	fields, ok := objectFields(raw)
	if !ok {
		return nil, fail("", "want an object")
	}
	s := &ServerConfig{Name: name, Type: "stdio", Source: p.source}
	var env, headers []stringMember
	seen := map[string]bool{}
	given := map[string]bool{} // the known keys with a value other than null
	inherit := true
	var oauthRaw json.RawMessage
	for _, f := range fields {
		if !serverKeys[f.key] {
			if s.Extra == nil {
				s.Extra = map[string]json.RawMessage{}
			}
			s.Extra[f.key] = f.val // a repeated key: the last one, as encoding/json does
			continue
		}
		if seen[f.key] {
			return nil, fail(f.key, "appears twice")
		}
		seen[f.key] = true
		if isJSONNull(f.val) {
			continue
		}
		given[f.key] = true
		var err error
		switch f.key {
		case "type":
			var t string
			if json.Unmarshal(f.val, &t) != nil {
				return nil, fail(f.key, "want a string")
			}
			if s.Type = knownType(t); s.Type == "" {
				return nil, fail(f.key, "%q is not a known transport; want stdio, http or sse", t)
			}
		case "command":
			err = decodeString(f.val, &s.Command)
		case "cwd":
			err = decodeString(f.val, &s.Cwd)
		case "url":
			err = decodeString(f.val, &s.URL)
		case "disabled":
			if json.Unmarshal(f.val, &s.Disabled) != nil {
				return nil, fail(f.key, "want true or false")
			}
		case "inheritEnv":
			if json.Unmarshal(f.val, &inherit) != nil {
				return nil, fail(f.key, "want true or false")
			}
		case "args":
			s.Args, err = p.stringList(name, f.key, f.val)
		case "allow":
			s.Allow, err = p.stringList(name, f.key, f.val)
		case "deny":
			s.Deny, err = p.stringList(name, f.key, f.val)
		case "env":
			env, err = p.stringMap(name, f.key, f.val)
		case "headers":
			headers, err = p.stringMap(name, f.key, f.val)
		case "headersHelper":
			if err = decodeString(f.val, &s.HeadersHelper); err == nil && strings.TrimSpace(s.HeadersHelper) == "" {
				return nil, fail(f.key, "empty")
			}
		case "oauth":
			// Kept among the keys plainmcp does not read too, where its
			// value is never printed: other programs may put secrets there.
			if s.Extra == nil {
				s.Extra = map[string]json.RawMessage{}
			}
			s.Extra[f.key] = f.val
			oauthRaw = f.val
		case "timeout":
			s.Timeout, err = decodeDuration(f.val)
		case "toolTimeout":
			s.ToolTimeout, err = decodeDuration(f.val)
		case "protocolVersion":
			if err = decodeString(f.val, &s.ProtocolVersion); err == nil && !slices.Contains(mcpclient.SupportedVersions, s.ProtocolVersion) {
				return nil, fail(f.key, "%q is not a version plainmcp speaks (%s)", s.ProtocolVersion, strings.Join(mcpclient.SupportedVersions, ", "))
			}
		}
		if errors.Is(err, ErrConfig) {
			return nil, err
		}
		if err != nil {
			return nil, fail(f.key, "%v", err)
		}
	}

	// A url and no type is an http server, as Claude Code takes it.
	if given["url"] && !given["type"] && !given["command"] {
		s.Type = "http"
	}
	switch {
	case s.Type != "stdio" && given["inheritEnv"]:
		return nil, fail("inheritEnv", "applies only to stdio servers")
	case s.Type == "stdio" && given["inheritEnv"]:
		s.SafeEnv = !inherit
	case s.Type == "stdio":
		s.SafeEnv = p.safeEnv
	}
	if oauthRaw != nil && s.Type != "stdio" { // a stdio server has no use for it
		var err error
		if s.OAuth, err = p.oauth(name, oauthRaw); err != nil {
			return nil, err
		}
	}

	// Expand in a fixed order, so the same file always gives the same
	// first error. Env and header names are not expanded, only values.
	var err error
	x := func(key string, v *string) {
		if err != nil {
			return
		}
		out, refs, xerr := expandVars(*v, p.env)
		if xerr != nil {
			err = fail(key, "%v", xerr)
			return
		}
		if refs {
			if s.templates == nil {
				s.templates = map[string]string{}
			}
			s.templates[key] = *v
		}
		*v = out
	}
	x("command", &s.Command)
	for i := range s.Args {
		x("args["+strconv.Itoa(i)+"]", &s.Args[i])
	}
	for i := range env {
		x("env."+env[i].key, &env[i].val)
	}
	x("cwd", &s.Cwd)
	x("url", &s.URL)
	for i := range headers {
		x("headers."+headers[i].key, &headers[i].val)
	}
	if err != nil {
		return nil, err
	}
	if s.Env, err = p.checkEnv(name, env); err != nil {
		return nil, err
	}
	if s.Headers, err = p.checkHeaders(name, headers); err != nil {
		return nil, err
	}
	if err := p.check(s); err != nil {
		return nil, err
	}
	return s, nil
}

// oauth parses a server's "oauth" object. Keys it does not know are
// left alone, as in the server object.
func (p *configParser) oauth(server string, raw json.RawMessage) (*OAuthConfig, error) {
	fields, ok := objectFields(raw)
	if !ok {
		return nil, p.errorf(server, "oauth", "want an object")
	}
	o := &OAuthConfig{}
	for _, f := range fields {
		key := "oauth." + f.key
		if isJSONNull(f.val) {
			continue
		}
		switch f.key {
		case "clientId":
			if decodeString(f.val, &o.ClientID) != nil {
				return nil, p.errorf(server, key, "want a string")
			}
		case "callbackPort":
			if json.Unmarshal(f.val, &o.CallbackPort) != nil || o.CallbackPort < 1 || o.CallbackPort > 65535 {
				return nil, p.errorf(server, key, "want a port number from 1 to 65535")
			}
		case "authServerMetadataUrl":
			if decodeString(f.val, &o.AuthServerMetadataURL) != nil {
				return nil, p.errorf(server, key, "want a string")
			}
			u, err := url.Parse(o.AuthServerMetadataURL)
			if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				return nil, p.errorf(server, key, "want an http or https URL")
			}
		case "scopes":
			var one string
			if json.Unmarshal(f.val, &one) == nil {
				o.Scopes = strings.Fields(one)
			} else if json.Unmarshal(f.val, &o.Scopes) != nil {
				return nil, p.errorf(server, key, "want a string or a list of strings")
			}
		}
	}
	return o, nil
}

// check validates what depends on the server's type, and the values that
// need no expansion.
func (p *configParser) check(s *ServerConfig) error {
	fail := func(key, format string, args ...any) error {
		return p.errorf(s.Name, key, format, args...)
	}
	if s.Type == "stdio" {
		switch {
		case s.Command == "" && !s.Disabled && s.URL != "":
			return fail("command", `missing; a server with a url needs "type": "http" or "sse"`)
		case s.Command == "" && !s.Disabled:
			return fail("command", "missing or empty")
		case s.URL != "":
			return fail("url", "applies only to http and sse servers")
		case len(s.Headers) > 0:
			return fail("headers", "apply only to http and sse servers")
		case s.HeadersHelper != "":
			return fail("headersHelper", "applies only to http and sse servers")
		}
	} else {
		switch {
		case s.Command != "":
			return fail("command", "applies only to stdio servers")
		case len(s.Args) > 0:
			return fail("args", "apply only to stdio servers")
		case len(s.Env) > 0:
			return fail("env", "applies only to stdio servers")
		case s.Cwd != "":
			return fail("cwd", "applies only to stdio servers")
		case s.URL == "" && !s.Disabled:
			return fail("url", "missing or empty")
		case s.SafeEnv:
			return fail("inheritEnv", "applies only to stdio servers")
		}
	}
	if strings.ContainsRune(s.Command, 0) {
		return fail("command", "contains a NUL byte")
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
	if strings.ContainsRune(s.Cwd, 0) {
		return fail("cwd", "contains a NUL byte")
	}
	if s.URL != "" {
		// The URL may hold a key, so the message does not quote it.
		u, err := url.Parse(s.URL)
		switch {
		case err != nil:
			return fail("url", "not a valid URL")
		case u.Scheme != "http" && u.Scheme != "https":
			return fail("url", "want an http or https URL")
		case u.Host == "":
			return fail("url", "no host")
		}
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
