package toolreg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
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
