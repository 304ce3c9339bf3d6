package mcpjson

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/plainmcp/plainmcp/internal/errtype"
	"github.com/plainmcp/plainmcp/internal/logging"
	"github.com/plainmcp/plainmcp/secret"
)

// ErrConfig is matched (with errors.Is) by every error [ParseConfig] and
// [LoadConfig] return for a config file's content. The message names the
// file, the server and the key, such as
//
//	.mcp.json: server "db": args[2]: ${DB_PASSWORD} is not set
//
// and never holds the value of a variable, an env entry or a header.
var ErrConfig = errors.New("mcpjson: invalid config")

// ConfigError is an error in a config file's content: of one server's
// entry, which a load leaves out, or of the whole file. It matches
// ErrConfig.
type ConfigError struct {
	Source string // the file
	Server string // the server's name; "" for an error of the file itself
	Key    string // the key, such as "args[2]" or "env.TOKEN"; "" if none
	msg    string
}

func (e *ConfigError) Error() string        { return e.msg }
func (e *ConfigError) Is(target error) bool { return target == ErrConfig }

// ConfigErrors returns the *ConfigError of every entry and file that err,
// an error of LoadConfig, LoadConfigFiles or ParseConfig, reports.
func ConfigErrors(err error) []*ConfigError {
	var out []*ConfigError
	var walk func(error)
	walk = func(err error) {
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range joined.Unwrap() {
				walk(e)
			}
			return
		}
		if ce := (*ConfigError)(nil); errtype.As(err, &ce) {
			out = append(out, ce)
		}
	}
	if err != nil {
		walk(err)
	}
	return out
}

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
	// environment and its working directory. Env's values are secrets (API
	// keys, tokens): they print as "[redacted]".
	Command string
	Args    []string
	Env     map[string]secret.String
	Cwd     string
	// SafeEnv starts a stdio server with a small safe set of our
	// environment variables (see transport.StdioConfig) under Env. The
	// zero value passes all of them, as Claude Code does; a file's
	// "inheritEnv": false, or ConfigOptions.SafeEnv for an entry that does
	// not say, sets it.
	SafeEnv bool

	// URL and Headers describe an http or sse server: its endpoint and the
	// headers sent with every request, whose values are secrets.
	URL     string
	Headers map[string]secret.String

	// HeadersHelper ("headersHelper") is a command run at each connection
	// to an http or sse server, without a shell: its words are split on
	// spaces, the first being the program. It must print a JSON object of
	// header names to string values, which are sent besides Headers and
	// win over them. Its output is a secret, never printed or logged, and
	// so is the command itself, whose arguments may carry a key.
	HeadersHelper secret.String
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
	// patterns and rules of toolreg.ToolFilter: if Allow is not empty, a tool must
	// match one of its patterns, and it must match none of Deny's.
	Allow, Deny []string

	// Source is the file the server came from, as passed to ParseConfig
	// or LoadConfig.
	Source string
	// Scope is the Claude Code scope of that file (ScopeUser,
	// ScopeProject, ScopeLocal), as ConfigFile.Scope gives it; "" for a
	// file of the host's own.
	Scope string
	// Approval is, for a server of a file with Approvals (a project's
	// .mcp.json, as ClaudeCodeFiles returns it), the user's answer:
	// Approved, Pending or Rejected; "" for any other server. The
	// registry starts no server whose Approval is Pending or Rejected.
	Approval string
	// Extra holds the keys plainmcp does not read, as they were: config
	// files are shared with other programs, which have keys of their own.
	Extra map[string]json.RawMessage

	// templates holds, for each field that had a variable reference
	// ("command", "args[1]", "cwd", "url"), its text as written, which
	// String shows instead of the expanded value.
	templates map[string]string
}

// Transport is the transport of the server: its Type or, for a
// ServerConfig a host made without one, what the fields say, as the JSON
// rule has it: "http" for a URL and no command, else "stdio".
func (s *ServerConfig) Transport() string {
	switch {
	case s.Type != "":
		return s.Type
	case s.URL != "" && s.Command == "":
		return "http"
	}
	return "stdio"
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
	// ClientSecret ("clientSecret", ${VAR} expanded) is the secret of a
	// confidential pre-registered client, with ClientID.
	ClientSecret secret.String
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
	// A *slog.Logger serves: any value with its Debug, Info, Warn and
	// Error methods does (internal/logging says why this is no *slog.Logger).
	Logger logging.Logger
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
	// Scope is the Claude Code scope of the file's servers, copied to
	// their ServerConfig.Scope: ClaudeCodeFiles sets it.
	Scope string
	// Approvals, if not nil, are the user's answers for the file's
	// servers, which then start only once approved: each one's
	// ServerConfig.Approval says its state. ClaudeCodeFiles sets it for
	// the project's .mcp.json.
	Approvals *Approvals
}

// Claude Code's scopes of a server, from the least to the most specific:
// the user's own servers (~/.claude.json), the project's, shared in its
// repository (.mcp.json), and the user's for one project (~/.claude.json's
// projects[dir]). Project-scope servers come with the repository, so
// a host should not start them before the user approves them.
const (
	ScopeUser    = "user"
	ScopeProject = "project"
	ScopeLocal   = "local"
)
