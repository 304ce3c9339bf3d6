package toolreg

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	// SafeEnv starts a stdio server with a small safe set of our
	// environment variables (see transport.StdioConfig) under Env. The
	// zero value passes all of them, as Claude Code does; a file's
	// "inheritEnv": false, or ConfigOptions.SafeEnv for an entry that does
	// not say, sets it.
	SafeEnv bool

	// URL and Headers describe an http or sse server: its endpoint and the
	// headers sent with every request.
	URL     string
	Headers map[string]string

	// HeadersHelper ("headersHelper") is a command run at each connection
	// to an http or sse server, without a shell: its words are split on
	// spaces, the first being the program. It must print a JSON object of
	// header names to string values, which are sent besides Headers and
	// win over them. Its output is a secret, never printed or logged.
	HeadersHelper string
	// OAuth ("oauth", as Claude Code writes it) configures the OAuth client
	// of an http or sse server; nil means the defaults.
	OAuth *OAuthConfig

	// Timeout bounds the server's startup; ToolTimeout bounds each tool
	// call. Zero means the registry's defaults.
	Timeout     time.Duration
	ToolTimeout time.Duration
	// ProtocolVersion, if set ("protocolVersion"), pins the version the
	// session speaks, and with it the era.
	ProtocolVersion string
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

// OAuthConfig is a server's "oauth" object: how plainmcp authorizes at its
// authorization server.
type OAuthConfig struct {
	// ClientID ("clientId") is a pre-registered client's ID; empty means
	// the client registers itself.
	ClientID string
	// CallbackPort ("callbackPort") is the loopback port the authorization
	// server redirects to; zero means a free port.
	CallbackPort int
	// AuthServerMetadataURL ("authServerMetadataUrl") names the
	// authorization server's metadata document, when discovery cannot
	// find it.
	AuthServerMetadataURL string
	// Scopes ("scopes", a string of space-separated scopes or a list) are
	// the scopes to ask for.
	Scopes []string
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

// ConfigOptions adjusts [ParseConfig], [LoadConfig] and [LoadConfigFiles].
// A nil *ConfigOptions is valid and means the defaults.
type ConfigOptions struct {
	// Env looks up the variables that ${NAME} refers to; nil means
	// os.LookupEnv.
	Env func(name string) (value string, ok bool)
	// SkipMissing makes LoadConfig pass over a file that does not exist,
	// rather than fail. Other errors, such as a file it may not read,
	// still fail.
	SkipMissing bool
	// SafeEnv gives the stdio servers whose entries have no "inheritEnv"
	// a small safe set of our environment variables rather than all of
	// them (see ServerConfig.SafeEnv). By default they inherit everything,
	// as under Claude Code, since servers written for it count on that
	// for API keys, proxies and the like.
	SafeEnv bool
	// Logger receives what a load notices but does not fail for: each key
	// of a server entry that plainmcp does not read, once per file (at
	// Warn level), and a file that holds no servers because it has no
	// mcpServers. Nil is silent.
	Logger *slog.Logger
}

// ConfigFile is a file for [LoadConfigFiles] to read, and the part of it
// that holds the servers.
type ConfigFile struct {
	// Path is the file's name; errors and ServerConfig.Source show it as
	// it is.
	Path string
	// Project, if not empty, reads the servers of projects[Project].mcpServers
	// rather than the top-level ones: the local scope that Claude Code
	// keeps in ~/.claude.json for each project directory. Project is that
	// directory's absolute path; a key that names it once symbolic links
	// are resolved matches too. A file with no such project, or a project
	// with no mcpServers, holds no servers.
	Project string
	// Optional makes a file that does not exist hold no servers, rather
	// than fail the load, as ConfigOptions.SkipMissing does for every file.
	Optional bool
}

// LoadConfig reads the files at paths, in order, and merges them: a
// server in a later file replaces the whole entry of the same name from
// an earlier one (a user file, then a project's .mcp.json). A file that
// fails to read fails the load, with an error that wraps the os error
// (fs.ErrNotExist for a missing file, unless opts.SkipMissing); a file
// whose content is wrong fails it with an error matching ErrConfig.
func LoadConfig(paths []string, opts *ConfigOptions) (*Config, error) {
	files := make([]ConfigFile, len(paths))
	for i, p := range paths {
		files[i] = ConfigFile{Path: p}
	}
	return LoadConfigFiles(files, opts)
}

// LoadConfigFiles is [LoadConfig] for files that may be optional or hold
// their servers under a project, such as those [ClaudeCodeFiles] returns.
// The files merge in order, a later one winning, as in LoadConfig.
func LoadConfigFiles(files []ConfigFile, opts *ConfigOptions) (*Config, error) {
	merged := &Config{}
	index := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			if (f.Optional || opts != nil && opts.SkipMissing) && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, fmt.Errorf("reading config: %w", err)
		}
		c, err := parseConfig(data, f.Path, f.Project, opts)
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
// (other top-level keys are ignored) or the bare {NAME: SERVER, …}. An
// object with no mcpServers whose members are not all objects, or none of
// them like a server, is another program's file, such as Claude Code's
// settings.json, and holds no servers. See the package documentation for
// the keys of SERVER.
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
		p.safeEnv, p.log = opts.SafeEnv, opts.Logger
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
	var servers []jsonMember
	if project != "" {
		raw, err := p.projectServers(fields, project)
		if err != nil || raw == nil {
			return &Config{}, err
		}
		if servers, ok = objectFields(raw); !ok {
			return nil, p.errorf("", "", "want an object")
		}
	} else if raw, n := findMember(fields, "mcpServers"); n > 0 {
		if n > 1 {
			return nil, p.errorf("", "mcpServers", "appears twice")
		}
		if isJSONNull(raw) {
			return &Config{}, nil
		}
		if servers, ok = objectFields(raw); !ok {
			return nil, p.errorf("", "mcpServers", "want an object")
		}
	} else if some, objects := serverEntries(fields); some && objects {
		servers = fields // the bare form
	} else {
		// Another program's file, such as Claude Code's settings.json or a
		// ~/.claude.json with no user-scope servers.
		if p.log != nil {
			level, msg := slog.LevelDebug, "config file has no mcpServers and no member like a server: no servers read from it"
			if some {
				level, msg = slog.LevelWarn, "config file has no mcpServers, and members that are not objects beside servers: no servers read from it"
			}
			p.log.Log(context.Background(), level, msg, "source", source)
		}
		return &Config{}, nil
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
	p.reportUnknownKeys(c.Servers)
	return c, nil
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

// findProject returns the key of projects that names the directory dir:
// the key itself, else one that is the same path once cleaned (so that
// "C:/src/app" matches C:\src\app on Windows), else one that names it
// once symbolic links in dir are resolved.
func findProject(projects []jsonMember, dir string) (string, bool) {
	for _, f := range projects {
		if f.key == dir {
			return f.key, true
		}
	}
	clean := filepath.Clean(dir)
	for _, f := range projects {
		if f.key != "" && filepath.Clean(f.key) == clean {
			return f.key, true
		}
	}
	resolved, err := filepath.EvalSymlinks(dir)
	if err != nil || resolved == clean {
		return "", false
	}
	for _, f := range projects {
		if f.key != "" && filepath.Clean(f.key) == resolved {
			return f.key, true
		}
	}
	return "", false
}

// serverEntries tells a file of servers in the bare form from another
// program's file with no mcpServers (Claude Code's settings.json, whose
// members are "permissions", "env", "model", a "statusLine" with a
// command and "type": "command", …): some reports whether a top-level
// member looks like a server entry — an object with a "type" that names a
// transport, or with no type and a command, args, url or disabled — and
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
