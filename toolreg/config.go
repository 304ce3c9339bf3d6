package toolreg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// ErrConfig is matched (with errors.Is) by every error [ParseConfig] and
// [LoadConfig] return for a config file's content. The message names the
// file, the server and the key, such as
//
//	.mcp.json: server "db": args[2]: ${DB_PASSWORD} is not set
//
// and never holds the value of a variable, an env entry or a header.
var ErrConfig = errors.New("toolreg: invalid config")

// configError is an error in a config file's content.
type configError struct{ msg string }

func (e *configError) Error() string        { return e.msg }
func (e *configError) Is(target error) bool { return target == ErrConfig }

// ServerConfig is one configured MCP server. [ParseConfig] fills it in
// with variables expanded and every value checked, and nothing modifies it
// after that, so any number of goroutines may read it.
type ServerConfig struct {
	// Name is the server's key in mcpServers.
	Name string
	// Type is "stdio", "http" (Streamable HTTP) or "sse" (the legacy
	// HTTP+SSE transport). An omitted type means "stdio"; "streamable-http"
	// and "streamableHttp", which some other clients write, mean "http".
	Type string

	// Command, Args, Env and Cwd describe a stdio server: the program (run
	// without a shell), its arguments, the variables added to its
	// environment and its working directory.
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string

	// URL and Headers describe an http or sse server: its endpoint and the
	// headers sent with every request.
	URL     string
	Headers map[string]string

	// Timeout bounds the server's startup; ToolTimeout bounds each tool
	// call. Zero means the registry's defaults.
	Timeout     time.Duration
	ToolTimeout time.Duration
	// Disabled servers are configured but not started.
	Disabled bool
	// Allow and Deny choose the server's tools to expose, with the
	// patterns and rules of [ToolFilter]: if Allow is not empty, a tool must
	// match one of its patterns, and it must match none of Deny's.
	Allow, Deny []string

	// Source is the file the server came from, as passed to ParseConfig
	// or LoadConfig.
	Source string
	// Extra holds the keys plainmcp does not read, as they were: config
	// files are shared with other programs, which have keys of their own.
	Extra map[string]json.RawMessage

	// templates holds, for each field that had a variable reference
	// ("command", "args[1]", "cwd", "url"), its text as written, which
	// String shows instead of the expanded value.
	templates map[string]string
}

// Config is the set of configured servers, from one file or several. Like
// a ServerConfig, it is not modified once returned, and any number of
// goroutines may read it.
type Config struct {
	// Servers are in the order of their first appearance; a server that
	// a later file replaced keeps the place of the one it replaced.
	Servers []*ServerConfig
}

// Server returns the server called name, or nil if there is none.
func (c *Config) Server(name string) *ServerConfig {
	for _, s := range c.Servers {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// ConfigOptions adjusts [ParseConfig] and [LoadConfig]. A nil *ConfigOptions
// is valid and means the defaults.
type ConfigOptions struct {
	// Env looks up the variables that ${NAME} refers to; nil means
	// os.LookupEnv.
	Env func(name string) (value string, ok bool)
	// SkipMissing makes LoadConfig pass over a file that does not exist,
	// rather than fail. Other errors, such as a file it may not read,
	// still fail.
	SkipMissing bool
}

// LoadConfig reads the files at paths, in order, and merges them: a
// server in a later file replaces the whole entry of the same name from
// an earlier one (a user file, then a project's .mcp.json). A file that
// fails to read fails the load, with an error that wraps the os error
// (fs.ErrNotExist for a missing file, unless opts.SkipMissing); a file
// whose content is wrong fails it with an error matching ErrConfig.
func LoadConfig(paths []string, opts *ConfigOptions) (*Config, error) {
	merged := &Config{}
	index := map[string]int{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			if opts != nil && opts.SkipMissing && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, fmt.Errorf("reading config: %w", err)
		}
		c, err := ParseConfig(data, p, opts)
		if err != nil {
			return nil, err
		}
		for _, s := range c.Servers {
			if i, ok := index[s.Name]; ok {
				merged.Servers[i] = s
				continue
			}
			index[s.Name] = len(merged.Servers)
			merged.Servers = append(merged.Servers, s)
		}
	}
	return merged, nil
}

// ParseConfig parses one config file's content; source names it in errors
// and in each server's Source.
//
// The content is a JSON object, either {"mcpServers": {NAME: SERVER, …}}
// (other top-level keys are ignored) or the bare {NAME: SERVER, …}. See
// the package documentation for the keys of SERVER.
func ParseConfig(data []byte, source string, opts *ConfigOptions) (*Config, error) {
	p := &configParser{source: source, env: os.LookupEnv}
	if opts != nil && opts.Env != nil {
		p.env = opts.Env
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM some editors write
	var top json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, p.errorf("", "", "%s", jsonError(data, err))
	}
	fields, ok := objectFields(top)
	if !ok {
		return nil, p.errorf("", "", "want a JSON object")
	}
	servers := fields
	if raw, n := findMember(fields, "mcpServers"); n > 0 {
		if n > 1 {
			return nil, p.errorf("", "mcpServers", "appears twice")
		}
		if isJSONNull(raw) {
			return &Config{}, nil
		}
		if servers, ok = objectFields(raw); !ok {
			return nil, p.errorf("", "mcpServers", "want an object")
		}
	}
	c := &Config{}
	seen := map[string]bool{}
	for _, f := range servers {
		if seen[f.key] {
			return nil, p.errorf(f.key, "", "appears twice")
		}
		seen[f.key] = true
		s, err := p.server(f.key, f.val)
		if err != nil {
			return nil, err
		}
		c.Servers = append(c.Servers, s)
	}
	return c, nil
}

// configParser holds what every part of one file's parse needs.
type configParser struct {
	source string
	env    func(string) (string, bool)
}

// errorf makes an ErrConfig error located at the file, the server (if
// any) and the key (if any).
func (p *configParser) errorf(server, key, format string, args ...any) error {
	var loc []string
	if p.source != "" {
		loc = append(loc, p.source)
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
	"disabled": true, "allow": true, "deny": true,
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
		var err error
		switch f.key {
		case "type":
			var t string
			if json.Unmarshal(f.val, &t) != nil {
				return nil, fail(f.key, "want a string")
			}
			switch t {
			case "stdio", "http", "sse":
				s.Type = t
			case "streamable-http", "streamableHttp": // as some other clients write it
				s.Type = "http"
			default:
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
		case "timeout":
			s.Timeout, err = decodeDuration(f.val)
		case "toolTimeout":
			s.ToolTimeout, err = decodeDuration(f.val)
		}
		if errors.Is(err, ErrConfig) {
			return nil, err
		}
		if err != nil {
			return nil, fail(f.key, "%v", err)
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
		}
	}
	if strings.ContainsRune(s.Command, 0) {
		return fail("command", "contains a NUL byte")
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

// jsonMember is one member of a JSON object.
type jsonMember struct {
	key string
	val json.RawMessage
}

// stringMember is one string member of a JSON object.
type stringMember struct{ key, val string }

// objectFields splits the JSON object raw, which must be valid JSON, into
// its members in order, repeated keys included. ok is false if raw is not
// an object.
func objectFields(raw json.RawMessage) (members []jsonMember, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, false
		}
		members = append(members, jsonMember{key, val})
	}
	return members, true
}

// findMember returns the last value of key among members and how many
// times it appears.
func findMember(members []jsonMember, key string) (val json.RawMessage, n int) {
	for _, f := range members {
		if f.key == key {
			val, n = f.val, n+1
		}
	}
	return val, n
}

func isJSONNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

func decodeString(raw json.RawMessage, v *string) error {
	if json.Unmarshal(raw, v) != nil {
		return errors.New("want a string")
	}
	return nil
}

// stringList decodes an array of strings; an error names the element.
func (p *configParser) stringList(server, key string, raw json.RawMessage) ([]string, error) {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, errors.New("want an array of strings")
	}
	list := make([]string, len(items))
	for i, item := range items {
		if isJSONNull(item) || json.Unmarshal(item, &list[i]) != nil {
			return nil, p.errorf(server, key+"["+strconv.Itoa(i)+"]", "want a string")
		}
	}
	return list, nil
}

// stringMap decodes an object of strings, in order; an error names the
// member.
func (p *configParser) stringMap(server, key string, raw json.RawMessage) ([]stringMember, error) {
	fields, ok := objectFields(raw)
	if !ok {
		return nil, errors.New("want an object of strings")
	}
	pairs := make([]stringMember, 0, len(fields))
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.key] {
			return nil, p.errorf(server, key+"."+f.key, "appears twice")
		}
		seen[f.key] = true
		var v string
		if isJSONNull(f.val) || json.Unmarshal(f.val, &v) != nil {
			return nil, p.errorf(server, key+"."+f.key, "want a string")
		}
		pairs = append(pairs, stringMember{f.key, v})
	}
	return pairs, nil
}

// maxMillis is the largest number of milliseconds a time.Duration holds.
const maxMillis = math.MaxInt64 / int64(time.Millisecond)

// decodeDuration decodes a timeout: a number of milliseconds, as Claude
// Code's own timeouts are written, or a Go duration string such as "30s".
func decodeDuration(raw json.RawMessage) (time.Duration, error) {
	bad := errors.New(`want milliseconds (a number) or a duration such as "30s"`)
	var str string
	if json.Unmarshal(raw, &str) == nil {
		d, err := time.ParseDuration(str)
		if err != nil || d < 0 {
			return 0, bad
		}
		return d, nil
	}
	var ms float64
	if json.Unmarshal(raw, &ms) != nil || !(ms >= 0 && ms <= float64(maxMillis)) {
		return 0, bad
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}
