package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// defaultConfig is the file mcpc reads when no server is named on the
// command line, as Claude Code reads a project's servers.
const defaultConfig = ".mcp.json"

// adHocSource is the Source of a server given by --stdio or --url.
const adHocSource = "the command line"

// selectServers returns the servers this run uses: the ad-hoc one, or
// those of the config files, narrowed by --server.
func (c *cli) selectServers(cfg *config) (*toolreg.Config, error) {
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
		if conf, err = c.loadConfig(cfg.configs); err != nil {
			return nil, err
		}
	}
	if cfg.server == "" {
		return conf, nil
	}
	sc := conf.Server(cfg.server)
	if sc == nil {
		return nil, usagef("--server %q: no such server; configured: %s", cfg.server, strings.Join(serverNames(conf), ", "))
	}
	return &toolreg.Config{Servers: []*toolreg.ServerConfig{sc}}, nil
}

// loadConfig reads the --config files, or the default .mcp.json if none was
// given. A config mcpc cannot use is a usage error: the user fixes it.
func (c *cli) loadConfig(paths []string) (*toolreg.Config, error) {
	var opts *toolreg.ConfigOptions
	if len(paths) == 0 {
		paths = []string{filepath.Join(c.dir, defaultConfig)}
		opts = &toolreg.ConfigOptions{SkipMissing: true}
	}
	conf, err := toolreg.LoadConfig(paths, opts)
	switch {
	case errors.Is(err, toolreg.ErrConfig), errors.Is(err, fs.ErrNotExist):
		return nil, usageError{err.Error()}
	case err != nil:
		return nil, err
	case len(conf.Servers) == 0:
		return nil, usagef("no MCP servers configured: create %s, or pass --config FILE, --stdio 'command args' or --url URL", defaultConfig)
	}
	return conf, nil
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
		words, err := splitWords(cfg.stdio)
		if err != nil {
			return nil, usagef("--stdio: %v", err)
		}
		if len(words) == 0 {
			return nil, usagef("--stdio: empty command")
		}
		sc.Type, sc.Command, sc.Args = "stdio", words[0], words[1:]
		for _, kv := range cfg.env {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, usagef("--env: want NAME=value")
			}
			if sc.Env == nil {
				sc.Env = map[string]string{}
			}
			sc.Env[k] = v
		}
		return sc, nil
	}
	if len(cfg.env) > 0 {
		return nil, usagef("--env applies to a --stdio server")
	}
	sc.Type, sc.URL, sc.Headers = "http", cfg.url, map[string]string{}
	for _, h := range cfg.headers {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, usagef(`--header: want "Name: value"`)
		}
		value = strings.TrimSpace(value)
		if prev, dup := sc.Headers[name]; dup {
			value = prev + ", " + value
		}
		sc.Headers[name] = value
	}
	if cfg.bearerEnv != "" {
		token := os.Getenv(cfg.bearerEnv)
		if token == "" {
			return nil, usagef("--bearer-env: $%s is empty", cfg.bearerEnv)
		}
		for k := range sc.Headers {
			if strings.EqualFold(k, "Authorization") {
				delete(sc.Headers, k)
			}
		}
		sc.Headers["Authorization"] = "Bearer " + token
	}
	return sc, nil
}

// registryOptions are the registry's options: the session handlers the
// flags ask for and, with --trace, every server's stream traced.
func registryOptions(cfg *config, stderr io.Writer, ask *asker) (*toolreg.Options, error) {
	session := &mcpclient.Options{
		ClientInfo:     mcpclient.Implementation{Name: "mcpc", Version: "0.1.0"},
		RequestTimeout: cfg.timeout,
	}
	if cfg.protocol != "" {
		session.ProtocolVersion = cfg.protocol
	}
	if err := wireHandlers(cfg, session, ask); err != nil {
		return nil, err
	}
	opts := &toolreg.Options{Session: session}
	if cfg.trace {
		// Every frame to stderr as "[server] -> frame" or "[server] <- frame",
		// so that the lines of several servers tell apart.
		opts.WrapStream = func(server string, s jsonrpc.Stream) jsonrpc.Stream {
			return transport.Trace(s, stderr, "["+server+"]")
		}
	}
	return opts, nil
}
