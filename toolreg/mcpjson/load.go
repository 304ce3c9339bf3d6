package mcpjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"

	"github.com/plainmcp/plainmcp/internal/logging"
)

// LoadConfig reads the files at paths, in order, and merges them: a
// server in a later file replaces the whole entry of the same name from
// an earlier one (a user file, then a project's .mcp.json).
//
// One unusable entry never costs the others: the Config holds every
// server that could be used, and the error, if not nil, reports the rest,
// one [*ConfigError] per entry (its file, server and key) or per file
// whose content is wrong (see [ConfigErrors]), and the os error of a file
// that could not be read (fs.ErrNotExist for a missing one, unless
// opts.SkipMissing), all joined. An entry left out also hides the entry of
// the same name in an earlier file: the server the user wrote last is the
// one that counts, and it is not replaced by an older one unnoticed.
func LoadConfig(paths []string, opts *ConfigOptions) (*Config, error) {
	files := make([]ConfigFile, len(paths))
	for i, p := range paths {
		files[i] = ConfigFile{Path: p}
	}
	return LoadConfigFiles(files, opts)
}

// LoadConfigFiles is [LoadConfig] for files that may be optional, hold
// their servers under a project, or carry a scope, such as those
// [ClaudeCodeFiles] returns. The files merge in order, a later one
// winning, as in LoadConfig, and the Config is never nil.
func LoadConfigFiles(files []ConfigFile, opts *ConfigOptions) (*Config, error) {
	m := &merger{index: map[string]int{}}
	var errs []error
	var off []string // turned off in the project, whatever their scope
	for _, f := range files {
		if f.Approvals != nil {
			off = append(off, f.Approvals.Off...)
		}
		data, err := readConfigFile(f)
		if err != nil {
			if (f.Optional || opts != nil && opts.SkipMissing) && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			errs = append(errs, fmt.Errorf("reading config: %w", err))
			continue
		}
		c, err := parseConfig(data, f.Path, f.Project, opts)
		for _, s := range c.Servers {
			s.Scope = f.Scope
			if f.Approvals != nil {
				s.Approval = f.Approvals.State(s.Name)
			}
		}
		m.add(c.Servers, ConfigErrors(err))
		errs = append(errs, err)
	}
	servers := m.servers()
	for _, s := range servers {
		if slices.Contains(off, s.Name) {
			s.Disabled = true
		}
	}
	return &Config{Servers: servers}, errors.Join(errs...)
}

// merger merges the servers of several files, in order.
type merger struct {
	list  []*ServerConfig // nil where a server was left out
	index map[string]int
}

// add merges one file's servers, and leaves out the earlier entries of
// the names whose entries in this file failed.
func (m *merger) add(servers []*ServerConfig, failed []*ConfigError) {
	for _, e := range failed {
		if i, ok := m.index[e.Server]; ok && e.Server != "" {
			m.list[i] = nil
			delete(m.index, e.Server)
		}
	}
	for _, s := range servers {
		if i, ok := m.index[s.Name]; ok {
			m.list[i] = s
			continue
		}
		m.index[s.Name] = len(m.list)
		m.list = append(m.list, s)
	}
}

func (m *merger) servers() []*ServerConfig {
	var out []*ServerConfig
	for _, s := range m.list {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
}

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
