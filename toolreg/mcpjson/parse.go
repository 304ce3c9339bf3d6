package mcpjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/plainmcp/plainmcp/internal/errtype"
	"github.com/plainmcp/plainmcp/internal/logging"
)

// The parse of one file's content: where its servers are (the top level,
// mcpServers, or a project's mcpServers in ~/.claude.json), each entry
// parsed on its own (server; entry.go), and the keys plainmcp does not
// read reported. Every error is located by configParser.errorf: file,
// place, server and key.

// ParseConfig parses one config file's content; source names it in errors
// and in each server's Source.
//
// The content is a JSON object, either {"mcpServers": {NAME: SERVER, …}}
// (other top-level keys are ignored) or the bare {NAME: SERVER, …}. An
// object with no mcpServers whose members are not all objects, or none of
// them like a server, is another program's file, such as Claude Code's
// settings.json, and holds no servers. See the package documentation for
// the keys of SERVER.
//
// As in LoadConfig, the Config (never nil) holds the servers that could be
// used, and the error reports the others, one [*ConfigError] each, or the
// whole file's content.
func ParseConfig(data []byte, source string, opts *ConfigOptions) (*Config, error) {
	return parseConfig(data, source, "", opts)
}

// parseConfig parses one file's content: its top-level servers, or with
// project set those of projects[project].mcpServers.
func parseConfig(data []byte, source, project string, opts *ConfigOptions) (*Config, error) {
	p := &configParser{source: source, env: os.LookupEnv}
	if opts != nil {
		if opts.Env != nil {
			p.env = opts.Env
		}
		p.safeEnv, p.log = opts.SafeEnv, logging.Usable(opts.Logger)
	}
	servers, err := p.serverMembers(data, project)
	if err != nil || servers == nil {
		return &Config{}, err
	}
	c := &Config{}
	var errs []error
	count := map[string]int{}
	for _, f := range servers {
		count[f.key]++
	}
	for _, f := range servers {
		if count[f.key] != 1 {
			if count[f.key] > 1 { // reported once, and every entry of the name left out
				errs = append(errs, p.errorf(f.key, "", "appears twice"))
				count[f.key] = -1
			}
			continue
		}
		s, err := p.server(f.key, f.val)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.Servers = append(c.Servers, s)
	}
	p.reportUnknownKeys(c.Servers)
	return c, errors.Join(errs...)
}

// configParser holds what every part of one file's parse needs. Its
// methods find and parse the servers (here), decode the values of their
// keys (keys.go) and check them (check.go).
type configParser struct {
	source  string
	at      string // where in the file the servers are, if not at the top: projects["/src/app"].mcpServers
	env     func(string) (string, bool)
	safeEnv bool           // the default of SafeEnv
	log     logging.Logger // nil is silent
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
	return &ConfigError{Source: p.source, Server: server, Key: key, msg: strings.Join(loc, ": ")}
}

// jsonError describes a JSON syntax error by line and column.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	if !errtype.As(err, &se) {
		return "invalid JSON: " + err.Error()
	}
	// Offset counts the bytes read, the bad one included.
	before := data[:max(0, min(int(se.Offset)-1, len(data)))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, se.Error())
}

// serverMembers finds the members of a file that are servers: those of
// mcpServers, of projects[project].mcpServers with project set, or the
// top-level ones of a file in the bare form. It returns none for another
// program's file, such as Claude Code's settings.json or a ~/.claude.json
// with no user-scope servers.
func (p *configParser) serverMembers(data []byte, project string) ([]jsonMember, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM some editors write
	var top json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, p.errorf("", "", "%s", jsonError(data, err))
	}
	fields, ok := objectFields(top)
	if !ok {
		return nil, p.errorf("", "", "want a JSON object")
	}
	var raw json.RawMessage
	key := "mcpServers"
	switch mcp, n := findMember(fields, key); {
	case project != "":
		var err error
		if raw, err = p.projectServers(fields, project); err != nil || raw == nil {
			return nil, err
		}
		key = "" // p.at says where
	case n > 1:
		return nil, p.errorf("", "mcpServers", "appears twice")
	case n == 1 && isJSONNull(mcp):
		return nil, nil
	case n == 1:
		raw = mcp
	default:
		return p.bareServers(fields), nil
	}
	servers, ok := objectFields(raw)
	if !ok {
		return nil, p.errorf("", key, "want an object")
	}
	return servers, nil
}

// projectServers finds projects[project].mcpServers among a file's
// top-level members, and sets p.at to that place for errors. It returns
// nil if the file has no servers for the project.
func (p *configParser) projectServers(fields []jsonMember, project string) (json.RawMessage, error) {
	raw, n := findMember(fields, "projects")
	if n == 0 || isJSONNull(raw) {
		return nil, nil
	}
	if n > 1 {
		return nil, p.errorf("", "projects", "appears twice")
	}
	projects, ok := objectFields(raw)
	if !ok {
		return nil, p.errorf("", "projects", "want an object")
	}
	key, ok := findProject(projects, project)
	if !ok {
		return nil, nil
	}
	p.at = "projects[" + strconv.Quote(key) + "]"
	entry, _ := findMember(projects, key)
	if isJSONNull(entry) {
		return nil, nil
	}
	members, ok := objectFields(entry)
	if !ok {
		return nil, p.errorf("", "", "want an object")
	}
	raw, n = findMember(members, "mcpServers")
	p.at += ".mcpServers"
	switch {
	case n > 1:
		return nil, p.errorf("", "", "appears twice")
	case n == 0 || isJSONNull(raw):
		return nil, nil
	}
	return raw, nil
}

// bareServers is the file's top-level members if it is in the bare form,
// else none (and a note to the log).
func (p *configParser) bareServers(fields []jsonMember) []jsonMember {
	some, objects := serverEntries(fields)
	if some && objects {
		return fields
	}
	if p.log != nil {
		if some {
			p.log.Warn("config file has no mcpServers, and members that are not objects beside servers: no servers read from it", "source", p.source)
		} else {
			p.log.Debug("config file has no mcpServers and no member like a server: no servers read from it", "source", p.source)
		}
	}
	return nil
}

// serverEntries tells a file of servers in the bare form from another
// program's file with no mcpServers (Claude Code's settings.json, whose
// members are "permissions", "env", "model", a "statusLine" with a
// command and "type": "command", …): some reports whether a top-level
// member looks like a server entry — an object with a "type" (or
// "transport") that names a transport, or with no type and a command, args, url or disabled — and
// objects whether every member is an object. A file is read in the bare
// form if both hold, so that a mistake in one of its servers is reported.
func serverEntries(fields []jsonMember) (some, objects bool) {
	objects = true
	for _, f := range fields {
		members, ok := objectFields(f.val)
		if !ok {
			objects = false
			continue
		}
		if raw, n := findMember(members, "type"); n > 0 && !isJSONNull(raw) {
			var t string
			some = some || json.Unmarshal(raw, &t) == nil && knownType(t) != ""
			continue
		}
		if raw, n := findMember(members, "transport"); n > 0 && !isJSONNull(raw) {
			var t string
			some = some || json.Unmarshal(raw, &t) == nil && knownType(t) != ""
			continue
		}
		for _, k := range []string{"command", "args", "url", "disabled"} {
			if _, n := findMember(members, k); n > 0 {
				some = true
			}
		}
	}
	return some, objects
}

// server parses, expands and checks the server called name.
func (p *configParser) server(name string, raw json.RawMessage) (*ServerConfig, error) {
	if name == "" {
		return nil, p.errorf("", "", `server "": want a non-empty name`)
	}
	if strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, p.errorf(name, "", "want a name without control characters")
	}
	fields, ok := objectFields(raw)
	if !ok {
		return nil, p.errorf(name, "", "want an object")
	}
	e := &entry{p: p, s: &ServerConfig{Name: name, Type: "stdio", Source: p.source}, given: map[string]bool{}, inherit: true}
	for _, step := range []func() error{
		func() error { return e.decode(fields) },
		e.settle,
		e.expand,
		e.finish,
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return e.s, nil
}

// reportUnknownKeys logs, once for each, the keys of the servers' entries
// that plainmcp does not read, with the servers that have them.
func (p *configParser) reportUnknownKeys(servers []*ServerConfig) {
	if p.log == nil {
		return
	}
	byKey := map[string][]string{}
	for _, s := range servers {
		for k := range s.Extra {
			if k == "oauth" && s.OAuth != nil {
				continue // kept there too (its value is never printed), and read
			}
			byKey[k] = append(byKey[k], s.Name)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		attrs := []any{"source", p.source}
		if p.at != "" {
			attrs = append(attrs, "at", p.at)
		}
		attrs = append(attrs, "key", k, "servers", byKey[k])
		p.log.Warn("config key not used by plainmcp", attrs...)
	}
}
