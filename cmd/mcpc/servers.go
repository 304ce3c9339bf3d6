package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
)

// defaultConfig is the project's file among those mcpc reads when no
// server is named on the command line: Claude Code's files for the working
// directory (see mcpjson.ClaudeCodeFiles).
const defaultConfig = ".mcp.json"

// adHocSource is the Source of a server given by --stdio or --url.
const adHocSource = "the command line"

// selectServers returns the servers this run uses: the ad-hoc one, or
// those of the config files, narrowed by --server.
func (c *cli) selectServers(ctx context.Context, cfg *config) (*toolreg.Config, error) {
	adHoc := cfg.stdio != "" || cfg.url != ""
	var conf *toolreg.Config
	switch {
	case cfg.stdio != "" && cfg.url != "":
		return nil, usagef("give --stdio or --url, not both")
	case adHoc && len(cfg.configs) > 0:
		return nil, usagef("give --config or a --stdio/--url server, not both")
	case !adHoc && (len(cfg.env) > 0 || len(cfg.headers) > 0 || cfg.bearerEnv != ""):
		return nil, usagef("--env, --header and --bearer-env apply to a --stdio or --url server")
	case adHoc:
		sc, err := adHocServer(cfg)
		if err != nil {
			return nil, err
		}
		conf = &toolreg.Config{Servers: []*toolreg.ServerConfig{sc}}
	default:
		var err error
		if conf, err = c.loadConfig(cfg.configs, cfg.server); err != nil {
			return nil, err
		}
		conf = c.approve(ctx, conf, cfg)
	}
	if cfg.server == "" {
		return conf, nil
	}
	return narrow(conf, cfg.server)
}

// narrow keeps the --server one of conf's servers: one that exists and,
// from a project's .mcp.json, is approved.
func narrow(conf *toolreg.Config, name string) (*toolreg.Config, error) {
	sc := conf.Server(name)
	if sc == nil {
		return nil, configf("--server %q: no such server; configured: %s", name, strings.Join(serverNames(conf), ", "))
	}
	switch sc.Approval {
	case mcpjson.Pending:
		return nil, refusedError{fmt.Sprintf("--server %q: %s", name, unapprovedHint[mcpjson.Pending])}
	case mcpjson.Rejected:
		return nil, refusedError{fmt.Sprintf("--server %q: %s", name, unapprovedHint[mcpjson.Rejected])}
	}
	return &toolreg.Config{Servers: []*toolreg.ServerConfig{sc}}, nil
}

// unapprovedHint says, for each approval state that keeps a project
// server from starting, why and the ways out that work.
var unapprovedHint = map[string]string{
	mcpjson.Pending:  "the project's server is not approved yet: answer y or o when mcpc asks at a terminal, or pass --trust-project to start it once",
	mcpjson.Rejected: "the project's server was refused (never, kept in ~/.claude.json's disabledMcpjsonServers): pass --trust-project to start it once, or run mcpc reset-project-choices to be asked again",
}

// loadConfig reads the --config files or, if none was given, Claude Code's
// files for the working directory, as Claude Code would: the user's and
// the project's servers in ~/.claude.json, and .mcp.json, any of which may
// be missing. What the load notices (keys mcpc does not use) is a warning
// on stderr, and so is an entry it leaves out: the other servers work. An
// entry left out is a config error when it is the --server one (server),
// and so is a --config file that is missing or leaves no server.
func (c *cli) loadConfig(paths []string, server string) (*toolreg.Config, error) {
	opts := &mcpjson.ConfigOptions{}
	if c.stderr != nil {
		opts.Logger = slog.New(&warnings{w: c.stderr})
	}
	var conf *toolreg.Config
	var err error
	if len(paths) > 0 {
		conf, err = mcpjson.LoadConfig(paths, opts)
	} else {
		var files []mcpjson.ConfigFile
		if files, err = mcpjson.ClaudeCodeFiles(c.dir); err != nil {
			return nil, err
		}
		conf, err = mcpjson.LoadConfigFiles(files, opts)
	}
	if err := c.configProblems(conf, err, paths, server); err != nil {
		return nil, err
	}
	switch {
	case len(conf.Servers) == 0 && len(paths) == 0:
		return nil, configf("no MCP servers configured (none in %s or in Claude Code's ~/.claude.json): create %s, or pass --config FILE, --stdio 'command args' or --url URL",
			filepath.Join(c.dir, defaultConfig), defaultConfig)
	case len(conf.Servers) == 0:
		return nil, configf("no MCP servers configured in the --config files: pass other files, --stdio 'command args' or --url URL")
	}
	return conf, nil
}

// configProblems judges what loading the config reported: an entry left
// out is fatal only when it is the server asked for, or when nothing could
// be loaded; otherwise each is one warning line.
func (c *cli) configProblems(conf *toolreg.Config, err error, paths []string, server string) error {
	for _, ce := range mcpjson.ConfigErrors(err) {
		if server != "" && ce.Server == server {
			return configError{ce.Error()}
		}
	}
	switch {
	case len(paths) > 0 && errors.Is(err, fs.ErrNotExist),
		err != nil && len(conf.Servers) == 0:
		return configError{oneLine(err.Error())}
	case err != nil && c.stderr != nil:
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(c.stderr, "mcpc: warning: %s (left out)\n", oneLine(line))
		}
	}
	return nil
}

func serverNames(conf *toolreg.Config) []string {
	names := make([]string, len(conf.Servers))
	for i, s := range conf.Servers {
		names[i] = s.Name
	}
	return names
}

// adHocServer describes the server of --stdio or --url. Error messages
// never repeat a header's or a variable's value.
func adHocServer(cfg *config) (*toolreg.ServerConfig, error) {
	if cfg.name == "" || strings.ContainsFunc(cfg.name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, usagef("--name: want a name without control characters")
	}
	sc := &toolreg.ServerConfig{Name: cfg.name, Source: adHocSource}
	if cfg.stdio != "" {
		if len(cfg.headers) > 0 || cfg.bearerEnv != "" {
			return nil, usagef("--header and --bearer-env apply to a --url server")
		}
		return sc, adHocStdio(sc, cfg)
	}
	if len(cfg.env) > 0 {
		return nil, usagef("--env applies to a --stdio server")
	}
	return sc, adHocHTTP(sc, cfg)
}

// adHocStdio is the command and environment of a --stdio server.
func adHocStdio(sc *toolreg.ServerConfig, cfg *config) error {
	words, err := splitWords(cfg.stdio)
	if err != nil {
		return usagef("--stdio: %v", err)
	}
	if len(words) == 0 {
		return usagef("--stdio: empty command")
	}
	sc.Type, sc.Command, sc.Args = "stdio", words[0], words[1:]
	for _, kv := range cfg.env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usagef("--env: want NAME=value")
		}
		if sc.Env == nil {
			sc.Env = map[string]secret.String{}
		}
		sc.Env[k] = secret.New(v)
	}
	return nil
}

// adHocHTTP is the URL and headers of a --url server: a header given
// twice is one with both values, and --bearer-env's token replaces any
// Authorization header.
func adHocHTTP(sc *toolreg.ServerConfig, cfg *config) error {
	sc.Type, sc.URL, sc.Headers = "http", cfg.url, map[string]secret.String{}
	for _, h := range cfg.headers {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return usagef(`--header: want "Name: value"`)
		}
		value = strings.TrimSpace(value)
		if prev, dup := sc.Headers[name]; dup {
			value = prev.Reveal() + ", " + value
		}
		sc.Headers[name] = secret.New(value)
	}
	if cfg.bearerEnv == "" {
		return nil
	}
	token := os.Getenv(cfg.bearerEnv)
	if token == "" {
		return usagef("--bearer-env: $%s is empty", cfg.bearerEnv)
	}
	for k := range sc.Headers {
		if strings.EqualFold(k, "Authorization") {
			delete(sc.Headers, k)
		}
	}
	sc.Headers["Authorization"] = secret.New("Bearer " + token)
	return nil
}
