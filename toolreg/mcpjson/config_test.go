package mcpjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The secrets of configEnv: no test output, error or String may show them.
const (
	secretToken = "ghp_S3cr3tT0kenValue1234567890"
	secretPass  = "hunter2-pa55w0rd"
)

var configEnv = testEnv(map[string]string{
	"HOME":         "/home/u",
	"GITHUB_TOKEN": secretToken,
	"DB_PASSWORD":  secretPass,
	"API_HOST":     "api.example.com",
	"EMPTY":        "",
	"CRLF":         "a\r\nInjected: yes",
	"NUL":          "a\x00b",
})

var ignoreTemplates = cmpopts.IgnoreUnexported(ServerConfig{})

func parse(t *testing.T, doc string) *Config {
	t.Helper()
	c, err := ParseConfig([]byte(doc), "proj/.mcp.json", &ConfigOptions{Env: configEnv})
	if err != nil {
		t.Fatalf("ParseConfig: %v", err)
	}
	return c
}

func TestParseConfigShapes(t *testing.T) {
	want := []*ServerConfig{
		{Name: "fs", Type: "stdio", Command: "mcp-fs", Source: "proj/.mcp.json"},
		{Name: "api", Type: "http", URL: "https://api.example.com/mcp", Source: "proj/.mcp.json"},
	}
	for _, tc := range []struct{ name, doc string }{
		{"mcpServers", `{"mcpServers": {"fs": {"command": "mcp-fs"}, "api": {"type": "http", "url": "https://api.example.com/mcp"}}}`},
		{"mcpServers among other keys", `{"theme": "dark", "mcpServers": {"fs": {"command": "mcp-fs"}, "api": {"type": "http", "url": "https://api.example.com/mcp"}}, "projects": {"x": 1}}`},
		{"bare map", `{"fs": {"command": "mcp-fs"}, "api": {"type": "http", "url": "https://api.example.com/mcp"}}`},
		{"byte order mark", "\ufeff" + `{"fs": {"command": "mcp-fs"}, "api": {"type": "http", "url": "https://api.example.com/mcp"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := parse(t, tc.doc)
			if diff := cmp.Diff(want, c.Servers, ignoreTemplates); diff != "" {
				t.Errorf("servers (-want +got):\n%s", diff)
			}
		})
	}
	for _, doc := range []string{`{}`, `{"mcpServers": {}}`, `{"mcpServers": null}`, `{"other": 1, "mcpServers": null}`} {
		if c := parse(t, doc); len(c.Servers) != 0 {
			t.Errorf("%s: got %d servers, want none", doc, len(c.Servers))
		}
	}
}

func TestParseConfigTypes(t *testing.T) {
	for _, tc := range []struct{ server, want string }{
		{`{"command": "x"}`, "stdio"},
		{`{"type": null, "command": "x"}`, "stdio"},
		{`{"type": "stdio", "command": "x"}`, "stdio"},
		{`{"type": "http", "url": "http://localhost:3000/mcp"}`, "http"},
		{`{"type": "streamable-http", "url": "http://localhost:3000/mcp"}`, "http"},
		{`{"type": "streamableHttp", "url": "http://localhost:3000/mcp"}`, "http"},
		{`{"type": "sse", "url": "https://example.com/sse"}`, "sse"},
	} {
		c := parse(t, `{"s": `+tc.server+`}`)
		if got := c.Servers[0].Type; got != tc.want {
			t.Errorf("%s: type %q, want %q", tc.server, got, tc.want)
		}
	}
}

func TestParseConfigEveryField(t *testing.T) {
	c := parse(t, `{"mcpServers": {
		"github": {
			"command": "npx",
			"args": ["-y", "@modelcontextprotocol/server-github"],
			"env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}", "LOG": "debug"},
			"cwd": "${HOME}/src",
			"timeout": 30000,
			"toolTimeout": "2m",
			"allow": ["get_*", "search_code"],
			"deny": ["*delete*"],
			"autoApprove": ["get_issue"],
			"Command": "not ours: keys are case-sensitive"
		},
		"remote": {
			"type": "sse",
			"url": "https://${API_HOST}/sse?tenant=${NOPE:-default}",
			"headers": {"Authorization": "Bearer ${GITHUB_TOKEN}", "X-Org": "acme"},
			"disabled": true,
			"timeout": 1500.5,
			"oauth": {"clientId": "abc"}
		}
	}}`)
	want := []*ServerConfig{{
		Name:        "github",
		Type:        "stdio",
		Command:     "npx",
		Args:        []string{"-y", "@modelcontextprotocol/server-github"},
		Env:         secretMap(map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": secretToken, "LOG": "debug"}),
		Cwd:         "/home/u/src",
		Timeout:     30 * time.Second,
		ToolTimeout: 2 * time.Minute,
		Allow:       []string{"get_*", "search_code"},
		Deny:        []string{"*delete*"},
		Source:      "proj/.mcp.json",
		Extra: map[string]json.RawMessage{
			"autoApprove": json.RawMessage(`["get_issue"]`),
			"Command":     json.RawMessage(`"not ours: keys are case-sensitive"`),
		},
	}, {
		Name:     "remote",
		Type:     "sse",
		URL:      "https://api.example.com/sse?tenant=default",
		Headers:  secretMap(map[string]string{"Authorization": "Bearer " + secretToken, "X-Org": "acme"}),
		Disabled: true,
		Timeout:  1500*time.Millisecond + 500*time.Microsecond,
		Source:   "proj/.mcp.json",
		OAuth:    &OAuthConfig{ClientID: "abc"},
		Extra:    map[string]json.RawMessage{"oauth": json.RawMessage(`{"clientId": "abc"}`)},
	}}
	if diff := cmp.Diff(want, c.Servers, ignoreTemplates); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	if got := c.Server("remote"); got != c.Servers[1] {
		t.Errorf(`Server("remote") = %p, want %p`, got, c.Servers[1])
	}
	if got := c.Server("nope"); got != nil {
		t.Errorf(`Server("nope") = %v, want nil`, got)
	}
}

func TestParseConfigTimeouts(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  time.Duration
	}{
		{`0`, 0},
		{`null`, 0},
		{`250`, 250 * time.Millisecond},
		{`60000`, time.Minute},
		{`0.5`, 500 * time.Microsecond},
		{`1e3`, time.Second},
		{`"30s"`, 30 * time.Second},
		{`"1m30s"`, 90 * time.Second},
		{`"1500ms"`, 1500 * time.Millisecond},
		{`"0s"`, 0},
	} {
		c := parse(t, `{"s": {"command": "x", "timeout": `+tc.value+`, "toolTimeout": `+tc.value+`}}`)
		if s := c.Servers[0]; s.Timeout != tc.want || s.ToolTimeout != tc.want {
			t.Errorf("%s: timeout %v, toolTimeout %v; want %v", tc.value, s.Timeout, s.ToolTimeout, tc.want)
		}
	}
}

// A disabled entry needs no command or URL, so a later file can switch a
// server off by name.
func TestParseConfigDisabledNeedsNoCommand(t *testing.T) {
	c := parse(t, `{"a": {"disabled": true}, "b": {"type": "http", "disabled": true}}`)
	if len(c.Servers) != 2 || !c.Servers[0].Disabled || !c.Servers[1].Disabled {
		t.Errorf("got %v, want two disabled servers", c.Servers)
	}
}

func TestParseConfigExpandsEveryField(t *testing.T) {
	c := parse(t, `{
		"s": {"command": "${HOME}/bin/srv", "args": ["--root", "${HOME}", "x${EMPTY}y", "$${HOME}"],
		      "env": {"TOKEN": "${GITHUB_TOKEN}", "LIT": "$${HOME}", "${HOME}": "names are not expanded"},
		      "cwd": "${NOPE:-/tmp}", "timeout": "30s"},
		"h": {"type": "http", "url": "https://${API_HOST}/mcp", "headers": {"X-Key": "${DB_PASSWORD}", "X-Lit": "$${DB_PASSWORD}"}}
	}`)
	s, h := c.Servers[0], c.Servers[1]
	if s.Command != "/home/u/bin/srv" {
		t.Errorf("command %q", s.Command)
	}
	if diff := cmp.Diff([]string{"--root", "/home/u", "xy", "${HOME}"}, s.Args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(secretMap(map[string]string{"TOKEN": secretToken, "LIT": "${HOME}", "${HOME}": "names are not expanded"}), s.Env); diff != "" {
		t.Errorf("env (-want +got):\n%s", diff)
	}
	if s.Cwd != "/tmp" {
		t.Errorf("cwd %q, want /tmp", s.Cwd)
	}
	if h.URL != "https://api.example.com/mcp" {
		t.Errorf("url %q", h.URL)
	}
	if diff := cmp.Diff(secretMap(map[string]string{"X-Key": secretPass, "X-Lit": "${DB_PASSWORD}"}), h.Headers); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
}

func TestParseConfigNilEnvIsTheProcessEnvironment(t *testing.T) {
	t.Setenv("PLAINMCP_TEST_CMD", "from-env")
	for _, opts := range []*ConfigOptions{nil, {}} {
		c, err := ParseConfig([]byte(`{"s": {"command": "${PLAINMCP_TEST_CMD}"}}`), "f", opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Servers[0].Command; got != "from-env" {
			t.Errorf("opts %v: command %q, want from-env", opts, got)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		// The file.
		{"not JSON", "{\n  \"a\": {,\n}", `proj/.mcp.json: invalid JSON at line 2, column 9`},
		{"trailing data", `{} {}`, `proj/.mcp.json: invalid JSON at line 1, column 4`},
		{"empty file", ``, `proj/.mcp.json: invalid JSON`},
		{"not an object", `["a"]`, `proj/.mcp.json: want a JSON object`},
		{"mcpServers not an object", `{"mcpServers": []}`, `proj/.mcp.json: mcpServers: want an object`},
		{"mcpServers twice", `{"mcpServers": {}, "mcpServers": {}}`, `proj/.mcp.json: mcpServers: appears twice`},
		{"server twice", `{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`, `proj/.mcp.json: server "a": appears twice`},
		{"server not an object", `{"mcpServers": {"a": "npx"}}`, `proj/.mcp.json: server "a": want an object`},
		{"bare map with an entry unlike a server", `{"a": {"command": "x"}, "b": {"cwd": "/"}}`, `proj/.mcp.json: server "b": command: missing or empty`},
		{"bare map with a bad type", `{"a": {"command": "x"}, "b": {"type": "ws", "url": "ws://x"}}`, `server "b": type: "ws" is not a known transport`},
		{"empty name", `{"": {"command": "x"}}`, `proj/.mcp.json: server "": want a non-empty name`},
		{"control character in name", `{"a\nb": {"command": "x"}}`, `server "a\nb": want a name without control characters`},
		// Types of values.
		{"type not a string", `{"mcpServers": {"a": {"type": 1}}}`, `server "a": type: want a string`},
		{"unknown type", `{"mcpServers": {"a": {"type": "ws", "url": "ws://x"}}}`, `server "a": type: "ws" is not a known transport; want stdio, http or sse`},
		{"type case", `{"mcpServers": {"a": {"type": "HTTP", "url": "http://x"}}}`, `server "a": type: "HTTP" is not a known transport`},
		{"empty type", `{"mcpServers": {"a": {"type": "", "command": "x"}}}`, `server "a": type: "" is not a known transport`},
		{"transport unknown", `{"mcpServers": {"a": {"transport": "ws", "url": "ws://x"}}}`, `server "a": transport: "ws" is not a known transport`},
		{"transport and type differ", `{"mcpServers": {"a": {"type": "http", "transport": "sse", "url": "http://x"}}}`, `server "a": transport: "sse" and "type": "http" name different transports; give one`},
		{"command not a string", `{"a": {"command": ["npx"]}}`, `server "a": command: want a string`},
		{"args not an array", `{"a": {"command": "x", "args": "-y"}}`, `server "a": args: want an array of strings`},
		{"arg not a string", `{"a": {"command": "x", "args": ["-y", 2]}}`, `server "a": args[1]: want a string`},
		{"arg null", `{"a": {"command": "x", "args": [null]}}`, `server "a": args[0]: want a string`},
		{"env value null", `{"a": {"command": "x", "env": {"A": null}}}`, `server "a": env.A: want a string`},
		{"env not an object", `{"a": {"command": "x", "env": ["A=1"]}}`, `server "a": env: want an object of strings`},
		{"env value not a string", `{"a": {"command": "x", "env": {"PORT": 8080}}}`, `server "a": env.PORT: want a string`},
		{"env key twice", `{"a": {"command": "x", "env": {"A": "1", "A": "2"}}}`, `server "a": env.A: appears twice`},
		{"env key empty", `{"a": {"command": "x", "env": {"": "1"}}}`, `server "a": env: a variable name is empty`},
		{"env key with =", `{"a": {"command": "x", "env": {"A=B": "1"}}}`, `server "a": env: the name "A=B" contains = or a NUL byte`},
		{"cwd not a string", `{"a": {"command": "x", "cwd": false}}`, `server "a": cwd: want a string`},
		{"url not a string", `{"a": {"type": "http", "url": 80}}`, `server "a": url: want a string`},
		{"headers not an object", `{"a": {"type": "http", "url": "http://x", "headers": "A: b"}}`, `server "a": headers: want an object of strings`},
		{"header value not a string", `{"a": {"type": "http", "url": "http://x", "headers": {"X-N": 1}}}`, `server "a": headers.X-N: want a string`},
		{"header name invalid", `{"a": {"type": "http", "url": "http://x", "headers": {"X N": "1"}}}`, `server "a": headers: "X N" is not a valid header name`},
		{"header name empty", `{"a": {"type": "http", "url": "http://x", "headers": {"": "1"}}}`, `server "a": headers: "" is not a valid header name`},
		{"header twice ignoring case", `{"a": {"type": "http", "url": "http://x", "headers": {"X-Key": "1", "x-key": "2"}}}`, `server "a": headers.x-key: appears twice (names ignore case)`},
		{"timeout negative", `{"a": {"command": "x", "timeout": -1}}`, `server "a": timeout: want milliseconds (a number) or a duration such as "30s"`},
		{"timeout bad string", `{"a": {"command": "x", "timeout": "30"}}`, `server "a": timeout: want milliseconds`},
		{"timeout negative string", `{"a": {"command": "x", "timeout": "-5s"}}`, `server "a": timeout: want milliseconds`},
		{"timeout bool", `{"a": {"command": "x", "timeout": true}}`, `server "a": timeout: want milliseconds`},
		{"timeout too long", `{"a": {"command": "x", "timeout": 1e300}}`, `server "a": timeout: want milliseconds`},
		{"toolTimeout bad", `{"a": {"command": "x", "toolTimeout": "soon"}}`, `server "a": toolTimeout: want milliseconds`},
		{"disabled not a bool", `{"a": {"command": "x", "disabled": "yes"}}`, `server "a": disabled: want true or false`},
		{"allow not an array", `{"a": {"command": "x", "allow": "read_*"}}`, `server "a": allow: want an array of strings`},
		{"allow item not a string", `{"a": {"command": "x", "allow": [null]}}`, `server "a": allow[0]: want a string`},
		{"deny empty pattern", `{"a": {"command": "x", "deny": ["rm", ""]}}`, `server "a": deny[1]: an empty pattern`},
		{"known key twice", `{"a": {"command": "x", "command": "y"}}`, `server "a": command: appears twice`},
		// What each type needs.
		{"stdio without command", `{"a": {"args": ["x"]}}`, `server "a": command: missing or empty`},
		{"stdio with empty command", `{"a": {"command": "${EMPTY}"}}`, `server "a": command: missing or empty`},
		{"stdio with a url only", `{"a": {"type": "stdio", "url": "https://x/mcp"}}`, `server "a": command: missing; a server with a url needs "type": "http" or "sse"`},
		{"stdio with url", `{"a": {"command": "x", "url": "https://x/mcp"}}`, `server "a": url: applies only to http and sse servers`},
		{"stdio with headers", `{"a": {"command": "x", "headers": {"A": "b"}}}`, `server "a": headers: apply only to http and sse servers`},
		{"http without url", `{"a": {"type": "http"}}`, `server "a": url: missing or empty`},
		{"sse with command", `{"a": {"type": "sse", "url": "https://x", "command": "x"}}`, `server "a": command: applies only to stdio servers`},
		{"http with args", `{"a": {"type": "http", "url": "https://x", "args": ["x"]}}`, `server "a": args: apply only to stdio servers`},
		{"http with env", `{"a": {"type": "http", "url": "https://x", "env": {"A": "b"}}}`, `server "a": env: applies only to stdio servers`},
		{"http with cwd", `{"a": {"type": "http", "url": "https://x", "cwd": "/"}}`, `server "a": cwd: applies only to stdio servers`},
		{"url scheme", `{"a": {"type": "http", "url": "ftp://x/mcp"}}`, `server "a": url: want an http or https URL`},
		{"url relative", `{"a": {"type": "http", "url": "/mcp"}}`, `server "a": url: want an http or https URL`},
		{"url without host", `{"a": {"type": "sse", "url": "http:///sse"}}`, `server "a": url: no host`},
		{"url unparsable", `{"a": {"type": "http", "url": "http://[::1"}}`, `server "a": url: not a valid URL`},
		{"disabled server still checked", `{"a": {"disabled": true, "args": [1]}}`, `server "a": args[0]: want a string`},
		// Expansion.
		{"missing in command", `{"db": {"command": "${DB_CMD}"}}`, `proj/.mcp.json: server "db": command: ${DB_CMD} is not set`},
		{"missing in args", `{"db": {"command": "x", "args": ["a", "b", "${DB_SECRET}"]}}`, `proj/.mcp.json: server "db": args[2]: ${DB_SECRET} is not set`},
		{"missing in env", `{"db": {"command": "x", "env": {"PW": "${DB_SECRET}"}}}`, `proj/.mcp.json: server "db": env.PW: ${DB_SECRET} is not set`},
		{"missing in cwd", `{"db": {"command": "x", "cwd": "${WORK}"}}`, `proj/.mcp.json: server "db": cwd: ${WORK} is not set`},
		{"missing in url", `{"db": {"type": "http", "url": "https://${DB_HOST}/mcp"}}`, `proj/.mcp.json: server "db": url: ${DB_HOST} is not set`},
		{"missing in headers", `{"db": {"type": "http", "url": "https://x", "headers": {"Authorization": "Bearer ${DB_SECRET}"}}}`, `proj/.mcp.json: server "db": headers.Authorization: ${DB_SECRET} is not set`},
		{"bad reference", `{"db": {"command": "x", "args": ["${DB-PASS}"]}}`, `server "db": args[0]: bad variable reference at offset 0`},
		{"nested reference", `{"db": {"command": "x", "args": ["${A:-${B}}"]}}`, `server "db": args[0]: ${A:-…}: a default may not hold another reference`},
		{"line break from a variable", `{"a": {"type": "http", "url": "https://x", "headers": {"X-Key": "${CRLF}"}}}`, `server "a": headers.X-Key: the value contains a line break or NUL byte`},
		{"NUL from a variable in args", `{"a": {"command": "x", "args": ["${NUL}"]}}`, `server "a": args[0]: contains a NUL byte`},
		{"oauth not an object", `{"a": {"type": "http", "url": "https://x", "oauth": 1}}`, `server "a": oauth: want an object`},
		{"oauth bad port", `{"a": {"type": "http", "url": "https://x", "oauth": {"callbackPort": 70000}}}`, `server "a": oauth.callbackPort: want a port number from 1 to 65535`},
		{"oauth bad metadata url", `{"a": {"type": "http", "url": "https://x", "oauth": {"authServerMetadataUrl": "/x"}}}`, `server "a": oauth.authServerMetadataUrl: want an http or https URL`},
		{"oauth bad scopes", `{"a": {"type": "http", "url": "https://x", "oauth": {"scopes": 3}}}`, `server "a": oauth.scopes: want a string or a list of strings`},
		{"headersHelper on stdio", `{"a": {"command": "x", "headersHelper": "h"}}`, `server "a": headersHelper: applies only to http and sse servers`},
		{"headersHelper empty", `{"a": {"type": "http", "url": "https://x", "headersHelper": " "}}`, `server "a": headersHelper: empty`},
		{"NUL from a variable in env", `{"a": {"command": "x", "env": {"V": "${NUL}"}}}`, `server "a": env.V: the value contains a NUL byte`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseConfig([]byte(tc.doc), "proj/.mcp.json", &ConfigOptions{Env: configEnv})
			if err == nil {
				t.Fatalf("got %v, want an error", c.Servers)
			}
			if !errors.Is(err, ErrConfig) {
				t.Errorf("error %q does not match ErrConfig", err)
			}
			if !strings.HasPrefix(err.Error(), "proj/.mcp.json: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error:\n  %s\nwant the file and:\n  %s", err, tc.want)
			}
			checkNoSecrets(t, "error", err.Error())
		})
	}
}

// checkNoSecrets fails the test if text shows a value of configEnv's
// secrets.
func checkNoSecrets(t *testing.T, what, text string) {
	t.Helper()
	for _, secret := range []string{secretToken, secretPass, "S3cr3t", "hunter2"} {
		if strings.Contains(text, secret) {
			t.Errorf("%s %q shows a secret", what, text)
		}
	}
}

func TestLoadConfigMerges(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.json")
	project := filepath.Join(dir, ".mcp.json")
	missing := filepath.Join(dir, "missing.json")
	write(t, user, `{"mcpServers": {
		"github": {"command": "gh-mcp"},
		"fs": {"command": "fs-mcp", "args": ["/"]},
		"db": {"command": "db-mcp"}}}`)
	write(t, project, `{
		"fs": {"command": "fs-mcp", "args": ["."], "allow": ["read_*"]},
		"db": {"disabled": true},
		"web": {"type": "http", "url": "https://example.com/mcp"}}`)

	c, err := LoadConfig([]string{user, missing, project}, &ConfigOptions{Env: configEnv, SkipMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []*ServerConfig{
		{Name: "github", Type: "stdio", Command: "gh-mcp", Source: user},
		{Name: "fs", Type: "stdio", Command: "fs-mcp", Args: []string{"."}, Allow: []string{"read_*"}, Source: project},
		{Name: "db", Type: "stdio", Disabled: true, Source: project},
		{Name: "web", Type: "http", URL: "https://example.com/mcp", Source: project},
	}
	if diff := cmp.Diff(want, c.Servers, ignoreTemplates); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}

	// The other order: the user file wins.
	c, err = LoadConfig([]string{project, user}, &ConfigOptions{Env: configEnv})
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Server("fs"); s.Source != user || s.Args[0] != "/" {
		t.Errorf("fs = %v, want the user file's", s)
	}
	if got := len(c.Servers); got != 4 {
		t.Errorf("%d servers, want 4", got)
	}

	c, err = LoadConfig(nil, nil)
	if err != nil || len(c.Servers) != 0 {
		t.Errorf("LoadConfig(nil) = %v, %v; want no servers", c, err)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	missing := filepath.Join(dir, "missing.json")
	write(t, good, `{"a": {"command": "x"}}`)
	write(t, bad, `{"b": {"command": "x", "env": {"K": "${DB_PASSWORD}", "J": "${NOT_SET}"}}}`)

	_, err := LoadConfig([]string{good, missing}, &ConfigOptions{Env: configEnv})
	if !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrConfig) {
		t.Errorf("missing file: %v, want fs.ErrNotExist and not ErrConfig", err)
	}
	_, err = LoadConfig([]string{dir}, &ConfigOptions{Env: configEnv, SkipMissing: true})
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("directory: %v, want an error other than fs.ErrNotExist", err)
	}
	_, err = LoadConfig([]string{good, bad}, &ConfigOptions{Env: configEnv})
	want := bad + `: server "b": env.J: ${NOT_SET} is not set`
	if !errors.Is(err, ErrConfig) || err.Error() != want {
		t.Errorf("bad file: %v, want %s", err, want)
	}
	checkNoSecrets(t, "error", fmt.Sprint(err))
}

func write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestServerConfigString(t *testing.T) {
	c := parse(t, `{
		"gh": {"command": "docker", "args": ["run", "-e", "GITHUB_TOKEN=${GITHUB_TOKEN}", "--token", "${GITHUB_TOKEN}", "ghcr.io/github/github-mcp-server"],
		       "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}", "B": "x"}, "cwd": "${HOME}"},
		"db": {"command": "db-mcp", "args": ["postgres://app:${DB_PASSWORD}@localhost/app", "--password=${DB_PASSWORD}"]},
		"api": {"type": "http", "url": "https://${API_HOST}/mcp?key=${GITHUB_TOKEN}&v=2", "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}, "disabled": true},
		"my server": {"command": "/opt/my tools/srv", "args": ["a b", ""]}
	}`)
	for i, want := range []string{
		`gh: stdio docker run -e GITHUB_TOKEN=${GITHUB_TOKEN} --token ${GITHUB_TOKEN} ghcr.io/github/github-mcp-server env=B,GITHUB_TOKEN cwd=${HOME} (proj/.mcp.json)`,
		`db: stdio db-mcp postgres://app:${DB_PASSWORD}@localhost/app --password=${DB_PASSWORD} (proj/.mcp.json)`,
		`api: http https://${API_HOST}/mcp?key=${GITHUB_TOKEN}&v=[redacted] headers=Authorization disabled (proj/.mcp.json)`,
		`"my server": stdio "/opt/my tools/srv" "a b" "" (proj/.mcp.json)`,
	} {
		if got := c.Servers[i].String(); got != want {
			t.Errorf("String() =\n  %s\nwant\n  %s", got, want)
		}
	}
}

// A ServerConfig built in code, or a file with secrets written in it, has
// no references to show; String hides what looks like a credential.
func TestServerConfigStringHidesLiteralSecrets(t *testing.T) {
	s := &ServerConfig{
		Name:    "x",
		Command: "srv",
		Args: []string{
			"--api-key", "sk-live-abcdef0123456789abcdef",
			"--token=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
			"-p", "hunter2-pa55w0rd",
			"--password", "hunter2-pa55w0rd",
			"PASSWORD=hunter2-pa55w0rd",
			"Authorization: Bearer abc.def.ghi",
			"Basic dXNlcjpodW50ZXIy",
			"https://user:hunter2-pa55w0rd@db.example.com:5432/app?sslmode=require&apikey=abcdefabcdef",
			"https://ghp_abcdefghijklmnopqrst@github.com/o/r.git",
			"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
			"AKIAIOSFODNN7EXAMPLE1234",
			"--verbose", "@modelcontextprotocol/server-filesystem", "/home/u/projects/2024",
		},
		Env:    secretMap(map[string]string{"SECRET": "hunter2-pa55w0rd"}),
		Source: "code",
	}
	want := `x: stdio srv --api-key [redacted] --token=[redacted] -p hunter2-pa55w0rd --password [redacted] PASSWORD=[redacted] ` +
		`"Authorization: Bearer [redacted]" "Basic [redacted]" ` +
		`https://user:[redacted]@db.example.com:5432/app?sslmode=[redacted]&apikey=[redacted] ` +
		`https://[redacted]@github.com/o/r.git [redacted] [redacted] ` +
		`--verbose @modelcontextprotocol/server-filesystem /home/u/projects/2024 env=SECRET (code)`
	if got := s.String(); got != want {
		t.Errorf("String() =\n  %s\nwant\n  %s", got, want)
	}
	h := &ServerConfig{Name: "h", Type: "http", URL: "https://example.com/mcp#frag", Headers: secretMap(map[string]string{"X-Api-Key": secretToken})}
	if got, want := h.String(), `h: http https://example.com/mcp#frag headers=X-Api-Key`; got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
}

func TestSecretsNeverShown(t *testing.T) {
	c := parse(t, `{
		"a": {"command": "${HOME}/srv", "args": ["--token", "${GITHUB_TOKEN}", "${DB_PASSWORD}", "u:${DB_PASSWORD}"],
		      "env": {"A": "${GITHUB_TOKEN}", "B": "${DB_PASSWORD}"}},
		"b": {"type": "http", "url": "https://u:${DB_PASSWORD}@${API_HOST}/${GITHUB_TOKEN}?k=${GITHUB_TOKEN}",
		      "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}", "X-Pass": "${DB_PASSWORD}"}}
	}`)
	for _, s := range c.Servers {
		checkNoSecrets(t, "String()", s.String())
		checkNoSecrets(t, "fmt %v", fmt.Sprintf("%v", s))
	}
}

func ExampleParseConfig() {
	env := func(name string) (string, bool) {
		if name == "GITHUB_TOKEN" {
			return "ghp_example", true
		}
		return "", false
	}
	c, err := ParseConfig([]byte(`{"mcpServers": {
		"github": {
			"command": "npx",
			"args": ["-y", "@modelcontextprotocol/server-github"],
			"env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"},
			"deny": ["delete_*"]
		},
		"docs": {"type": "http", "url": "${DOCS_URL:-http://localhost:8080/mcp}", "timeout": "10s"}
	}}`), ".mcp.json", &ConfigOptions{Env: env})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range c.Servers {
		fmt.Println(s)
	}
	fmt.Println(c.Server("docs").URL, c.Server("docs").Timeout)

	_, err = ParseConfig([]byte(`{"db": {"command": "db-mcp", "args": ["--password", "${DB_PASSWORD}"]}}`), ".mcp.json", &ConfigOptions{Env: env})
	fmt.Println(err)
	// Output:
	// github: stdio npx -y @modelcontextprotocol/server-github env=GITHUB_PERSONAL_ACCESS_TOKEN (.mcp.json)
	// docs: http ${DOCS_URL:-http://localhost:8080/mcp} (.mcp.json)
	// http://localhost:8080/mcp 10s
	// .mcp.json: server "db": args[1]: ${DB_PASSWORD} is not set
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"mcpServers": {"a": {"command": "x", "args": ["${HOME}"], "env": {"K": "${GITHUB_TOKEN}"}}}}`,
		`{"a": {"type": "http", "url": "https://${API_HOST}/mcp", "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}}}`,
		`{"a": {"type": "sse", "url": "http://h/sse", "timeout": 100, "toolTimeout": "1s", "disabled": false}}`,
		`{"a": {"command": "x", "allow": ["a*"], "deny": ["*b"], "extra": {"n": [1, 2]}}}`,
		`{"a": {"disabled": true}}`,
		`{"a": {"type": "streamableHttp", "url": "http://h"}}`,
		`{"a": {"command": "$${x}${NOPE:-d}"}}`,
		`{"mcpServers": null, "x": 1}`,
		`[1]`, `{"a": 1}`, `{"a": {"command": 1}}`,
		`{"a": {"url": "http://h/mcp"}, "b": {"command": "npx -y pkg"}, "c": {"command": "x", "inheritEnv": false}}`,
		`{"permissions": {"allow": ["Read"]}, "statusLine": {"type": "command", "command": "x"}, "model": "m"}`,
		`{"projects": {"/p": {"mcpServers": {"a": {"command": "x"}}}}, "numStartups": 1}`,
	} {
		f.Add([]byte(s))
	}
	// The same variables with other secrets: what ParseConfig says, in an
	// error or in String, must not depend on them.
	otherEnv := testEnv(map[string]string{
		"HOME":         "/home/u",
		"GITHUB_TOKEN": "ghp_0therT0kenValue0987654321x",
		"DB_PASSWORD":  "other2-pa55w0rdx",
		"API_HOST":     "api.example.com",
		"EMPTY":        "",
		"CRLF":         "a\r\nInjected: yes",
		"NUL":          "a\x00b",
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data, "fuzz.json", &ConfigOptions{Env: configEnv})
		other, otherErr := ParseConfig(data, "fuzz.json", &ConfigOptions{Env: otherEnv})
		if (err == nil) != (otherErr == nil) {
			t.Fatalf("the secrets' values decide whether it parses: %v, %v", err, otherErr)
		}
		if err != nil {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("error %q does not match ErrConfig", err)
			}
			if !strings.HasPrefix(err.Error(), "fuzz.json: ") {
				t.Fatalf("error %q does not name the file", err)
			}
			if err.Error() != otherErr.Error() {
				t.Fatalf("errors show the secrets: %q, %q", err, otherErr)
			}
			return
		}
		names := map[string]bool{}
		for _, s := range c.Servers {
			if s.Name == "" || names[s.Name] {
				t.Fatalf("server name %q empty or repeated", s.Name)
			}
			names[s.Name] = true
			if s.Source != "fuzz.json" {
				t.Fatalf("source %q", s.Source)
			}
			if s.Timeout < 0 || s.ToolTimeout < 0 {
				t.Fatalf("negative timeout %v %v", s.Timeout, s.ToolTimeout)
			}
			switch s.Type {
			case "stdio":
				if s.Command == "" && !s.Disabled || s.URL != "" || len(s.Headers) > 0 {
					t.Fatalf("bad stdio server %#v", s)
				}
			case "http", "sse":
				if s.URL == "" && !s.Disabled || s.Command != "" || len(s.Args)+len(s.Env) > 0 || s.Cwd != "" {
					t.Fatalf("bad %s server %#v", s.Type, s)
				}
			default:
				t.Fatalf("type %q", s.Type)
			}
			if s.SafeEnv && s.Type != "stdio" {
				t.Fatalf("the safe environment for a %s server", s.Type)
			}
			for k := range s.Extra {
				if serverKeys[k] != nil && k != "oauth" { // oauth is kept in Extra too
					t.Fatalf("known key %q in Extra", k)
				}
			}
			p := &configParser{source: "fuzz.json", env: configEnv}
			if err := p.check(s); err != nil {
				t.Fatalf("a parsed server fails its check: %v", err)
			}
		}
		for i, s := range c.Servers {
			if a, b := s.String(), other.Servers[i].String(); a != b {
				t.Fatalf("String shows the secrets: %q, %q", a, b)
			}
		}
	})
}

// Claude Code's oauth object and headersHelper are read.
func TestParseConfigOAuthAndHeadersHelper(t *testing.T) {
	c, err := ParseConfig([]byte(`{"mcpServers": {"a": {"type": "http", "url": "https://x/mcp", "headersHelper": "/bin/get-headers --json",
		"oauth": {"clientId": "cid", "callbackPort": 8765, "authServerMetadataUrl": "https://as.example/.well-known/oauth-authorization-server", "scopes": "read write", "other": 1}},
		"b": {"type": "http", "url": "https://y/mcp", "oauth": {"scopes": ["files:read"]}}}}`), ".mcp.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := c.Servers[0], c.Servers[1]
	want := &OAuthConfig{ClientID: "cid", CallbackPort: 8765, AuthServerMetadataURL: "https://as.example/.well-known/oauth-authorization-server", Scopes: []string{"read", "write"}}
	if diff := cmp.Diff(want, a.OAuth); diff != "" {
		t.Errorf("oauth (-want +got):\n%s", diff)
	}
	if a.HeadersHelper.Reveal() != "/bin/get-headers --json" {
		t.Errorf("headersHelper = %q", a.HeadersHelper.Reveal())
	}
	if diff := cmp.Diff(&OAuthConfig{Scopes: []string{"files:read"}}, b.OAuth); diff != "" {
		t.Errorf("oauth (-want +got):\n%s", diff)
	}
	if s := a.String(); !strings.Contains(s, "headersHelper") || !strings.Contains(s, "oauth") {
		t.Errorf("String() = %s", s)
	}
}

// oauth.clientSecret is read, ${VAR} expanded, kept as a secret (never
// printed), and the oauth object is not reported as a key plainmcp does
// not use.
func TestParseConfigOAuthClientSecret(t *testing.T) {
	var log bytes.Buffer
	opts := &ConfigOptions{
		Env:    func(name string) (string, bool) { return "s3cr3t-VALUE", name == "NOTES_SECRET" },
		Logger: slog.New(slog.NewTextHandler(&log, nil)),
	}
	c, err := ParseConfig([]byte(`{"mcpServers": {"a": {"type": "http", "url": "https://x/mcp",
		"oauth": {"clientId": "cid", "clientSecret": "${NOTES_SECRET}"}}}}`), ".mcp.json", opts)
	if err != nil {
		t.Fatal(err)
	}
	o := c.Servers[0].OAuth
	if o == nil || o.ClientSecret.Reveal() != "s3cr3t-VALUE" || o.ClientID != "cid" {
		t.Fatalf("oauth: %+v", o)
	}
	for _, s := range []string{fmt.Sprintf("%v %+v %#v", o, o, o), c.Servers[0].String(), log.String()} {
		if strings.Contains(s, "s3cr3t") {
			t.Errorf("the client secret is printed: %s", s)
		}
	}
	if strings.Contains(log.String(), "not used") {
		t.Errorf("oauth reported as unused: %s", log.String())
	}
	if _, err := ParseConfig([]byte(`{"mcpServers": {"a": {"url": "https://x/mcp", "oauth": {"clientSecret": "${MISSING}"}}}}`), ".mcp.json",
		&ConfigOptions{Env: func(string) (string, bool) { return "", false }}); err == nil || !strings.Contains(err.Error(), "oauth.clientSecret") {
		t.Errorf("a missing variable: got %v, want an error naming oauth.clientSecret", err)
	}
}

// "transport", as Saiki's configs write it, is type's synonym: sse is the
// legacy HTTP+SSE transport (it was read as Streamable HTTP, with a
// warning), and a type that agrees with it is no conflict.
func TestTransportIsTypesSynonym(t *testing.T) {
	for _, tc := range []struct{ entry, want string }{
		{`{"transport": "sse", "url": "https://x.example/sse"}`, "sse"},
		{`{"transport": "http", "url": "https://x.example/mcp"}`, "http"},
		{`{"transport": "streamable-http", "type": "http", "url": "https://x.example/mcp"}`, "http"},
		{`{"transport": "stdio", "command": "srv"}`, "stdio"},
	} {
		var logs strings.Builder
		c, err := ParseConfig([]byte(`{"mcpServers": {"a": `+tc.entry+`}}`), "saiki.json",
			&ConfigOptions{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatalf("%s: %v", tc.entry, err)
		}
		if got := c.Servers[0].Type; got != tc.want || c.Servers[0].Extra != nil || logs.Len() > 0 {
			t.Errorf("%s: type %q, extra %v, logs %q; want type %q", tc.entry, got, c.Servers[0].Extra, logs.String(), tc.want)
		}
	}
	// A bare map of servers is told by its transport too.
	c, err := ParseConfig([]byte(`{"a": {"transport": "sse", "url": "https://x.example/sse"}}`), "bare.json", nil)
	if err != nil || len(c.Servers) != 1 || c.Servers[0].Type != "sse" {
		t.Errorf("bare map: %v, %v", c, err)
	}
}
