package mcpjson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// logRecords is a slog.Handler that keeps every record, its attributes
// flattened to text.
type logRecords struct {
	mu      sync.Mutex
	records []loggedRecord
}

type loggedRecord struct {
	level slog.Level
	msg   string
	attrs map[string]string
}

func (l *logRecords) logger() *slog.Logger { return slog.New(l) }

func (l *logRecords) Enabled(context.Context, slog.Level) bool { return true }
func (l *logRecords) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logRecords) WithGroup(string) slog.Handler            { return l }
func (l *logRecords) Handle(_ context.Context, r slog.Record) error {
	rec := loggedRecord{level: r.Level, msg: r.Message, attrs: map[string]string{}}
	r.Attrs(func(a slog.Attr) bool {
		rec.attrs[a.Key] = fmt.Sprint(a.Value.Any())
		return true
	})
	l.mu.Lock()
	l.records = append(l.records, rec)
	l.mu.Unlock()
	return nil
}

// A file with no mcpServers whose members are not server entries, such as
// Claude Code's settings.json or a ~/.claude.json without user-scope
// servers, holds no servers, rather than failing the load.
func TestParseConfigOtherProgramsFilesHoldNoServers(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		warn      bool // some member looked like a server
	}{
		{"settings.json", `{
			"$schema": "https://json.schemastore.org/claude-code-settings.json",
			"permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"]},
			"env": {"CLAUDE_CODE_ENABLE_TELEMETRY": "0"},
			"model": "opus",
			"statusLine": {"type": "command", "command": "~/.claude/statusline.sh"},
			"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "gofmt -w ."}]}]},
			"enabledMcpjsonServers": ["memory"]
		}`, false},
		{"settings.json of objects only", `{"permissions": {"allow": ["Read"]}, "statusLine": {"type": "command", "command": "x"}}`, false},
		{"claude.json without user-scope servers", `{"numStartups": 12, "projects": {"/src/app": {"mcpServers": {"a": {"command": "x"}}}}}`, false},
		{"a string member", `{"theme": "dark"}`, false},
		{"a server beside a non-object", `{"fs": {"command": "mcp-fs"}, "theme": "dark"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log logRecords
			c, err := ParseConfig([]byte(tc.doc), "settings.json", &ConfigOptions{Env: configEnv, Logger: log.logger()})
			if err != nil || len(c.Servers) != 0 {
				t.Fatalf("got %v, %v; want no servers and no error", c, err)
			}
			if len(log.records) != 1 || log.records[0].attrs["source"] != "settings.json" ||
				(log.records[0].level == slog.LevelWarn) != tc.warn {
				t.Errorf("logged %+v, want one record for the file (warning: %v)", log.records, tc.warn)
			}
		})
	}

	// Among other files, it takes nothing away.
	dir := t.TempDir()
	user, settings := filepath.Join(dir, "user.json"), filepath.Join(dir, "settings.json")
	write(t, user, `{"mcpServers": {"fs": {"command": "mcp-fs"}}}`)
	write(t, settings, `{"permissions": {"allow": ["Read"]}, "model": "opus"}`)
	c, err := LoadConfig([]string{user, settings}, nil)
	if err != nil || len(c.Servers) != 1 || c.Servers[0].Name != "fs" {
		t.Errorf("LoadConfig = %v, %v; want the server fs", c, err)
	}
}

// A server with a url and no type is an http server, as Claude Code takes
// it.
func TestParseConfigURLWithoutTypeIsHTTP(t *testing.T) {
	c := parse(t, `{"mcpServers": {
		"a": {"url": "https://example.com/mcp"},
		"b": {"type": null, "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}},
		"c": {"url": "https://example.com/mcp", "disabled": true},
		"d": {"type": "sse", "url": "https://example.com/sse"}
	}}`)
	for i, want := range []string{"http", "http", "http", "sse"} {
		if s := c.Servers[i]; s.Type != want {
			t.Errorf("%s: type %q, want %q", s.Name, s.Type, want)
		}
	}
	// Claude Code skips such an entry: the log says to write the type,
	// once for each.
	var log logRecords
	ParseConfig([]byte(`{"a": {"url": "https://example.com/mcp"}, "d": {"type": "http", "url": "https://example.com/mcp"}}`), "f", &ConfigOptions{Logger: log.logger()})
	if len(log.records) != 1 || log.records[0].level != slog.LevelWarn || log.records[0].attrs["server"] != "a" || !strings.Contains(log.records[0].msg, "no type") {
		t.Errorf("logged %+v", log.records)
	}
	// A command and a url: a stdio server, which may not have a url.
	_, err := ParseConfig([]byte(`{"a": {"command": "x", "url": "https://example.com/mcp"}}`), "f", nil)
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), `server "a": url: applies only to http and sse servers`) {
		t.Errorf("command and url: %v", err)
	}
}

func TestParseConfigInheritEnv(t *testing.T) {
	for _, tc := range []struct {
		entry    string
		safeOpt  bool // ConfigOptions.SafeEnv
		wantSafe bool
	}{
		{`{"command": "x"}`, false, false},
		{`{"command": "x"}`, true, true},
		{`{"command": "x", "inheritEnv": false}`, false, true},
		{`{"command": "x", "inheritEnv": false}`, true, true},
		{`{"command": "x", "inheritEnv": true}`, false, false},
		{`{"command": "x", "inheritEnv": true}`, true, false},
		{`{"command": "x", "inheritEnv": null}`, true, true},
		{`{"type": "http", "url": "https://example.com/mcp"}`, true, false},
		{`{"disabled": true, "inheritEnv": false}`, false, true},
	} {
		c, err := ParseConfig([]byte(`{"s": `+tc.entry+`}`), "f", &ConfigOptions{SafeEnv: tc.safeOpt})
		if err != nil {
			t.Fatalf("%s: %v", tc.entry, err)
		}
		if s := c.Servers[0]; s.SafeEnv != tc.wantSafe {
			t.Errorf("%s with SafeEnv %v: SafeEnv %v, want %v", tc.entry, tc.safeOpt, s.SafeEnv, tc.wantSafe)
		}
		if inString := strings.Contains(c.Servers[0].String(), "inheritEnv=false"); inString != tc.wantSafe {
			t.Errorf("%s: String %q", tc.entry, c.Servers[0])
		}
	}
	for _, tc := range []struct{ entry, want string }{
		{`{"command": "x", "inheritEnv": "no"}`, `server "s": inheritEnv: want true or false`},
		{`{"type": "http", "url": "https://example.com/mcp", "inheritEnv": false}`, `server "s": inheritEnv: applies only to stdio servers`},
		{`{"url": "https://example.com/mcp", "inheritEnv": true}`, `server "s": inheritEnv: applies only to stdio servers`},
	} {
		_, err := ParseConfig([]byte(`{"s": `+tc.entry+`}`), "f", nil)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %s", tc.entry, err, tc.want)
		}
	}
}

// A command line written in one string fails with a hint to use args,
// unless the string names a program after all.
func TestParseConfigCommandInOneString(t *testing.T) {
	dir := t.TempDir()
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	spaced := filepath.Join(dir, "my tools", "srv"+exe) // a path with a space
	inPath := filepath.Join(dir, "bin", "my server"+exe)
	for _, f := range []string{spaced, inPath} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", filepath.Join(dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }

	for _, entry := range []string{
		`{"command": ` + quote(spaced) + `}`,
		`{"command": ` + quote(filepath.Join("my tools", "srv"+exe)) + `, "cwd": ` + quote(dir) + `}`,
		`{"command": "my server"}`,
		`{"command": "npx -y", "args": ["pkg"]}`, // args given: taken as written
		`{"command": "npx -y pkg", "disabled": true}`,
	} {
		if _, err := ParseConfig([]byte(`{"s": `+entry+`}`), "f", nil); err != nil {
			t.Errorf("%s: %v", entry, err)
		}
	}

	for _, tc := range []struct{ entry, want string }{
		{`{"command": "npx -y @modelcontextprotocol/server-memory"}`,
			`server "s": command: "npx -y @modelcontextprotocol/server-memory" is one string with spaces that names no program, ` +
				`and plainmcp runs no shell to split it: use "args", as in "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]`},
		{`{"command": "uvx  mcp-server-git\t--repository ."}`, `as in "command": "uvx", "args": ["mcp-server-git", "--repository", "."]`},
		{`{"command": "srv --token ` + secretToken + `"}`, `use "args", as in "command": "srv", "args": ["--token", "[redacted]"]`},
		{`{"command": "${SPACED}"}`, `server "s": command: one string with spaces that names no program, and plainmcp runs no shell to split it: ` +
			`use "args", with the program alone in "command" and each argument in "args"`},
	} {
		env := testEnv(map[string]string{"SPACED": "srv --password " + secretPass})
		_, err := ParseConfig([]byte(`{"s": `+tc.entry+`}`), "f", &ConfigOptions{Env: env})
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n  error %v\n  want %s", tc.entry, err, tc.want)
		}
		checkNoSecrets(t, "error", fmt.Sprint(err))
	}
}

// Each key of a server entry that plainmcp does not read is logged once
// per file, with the servers that have it; its value never is.
func TestLoadConfigReportsUnknownKeys(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, ".claude.json")
	project := filepath.Join(dir, ".mcp.json")
	write(t, user, `{"mcpServers": {"gh": {"type": "stdio", "command": "gh-mcp", "env": {}, "autoApprove": ["x"]}},
		"projects": {"/src/app": {"mcpServers": {"db": {"command": "db-mcp", "oauth": {"clientSecret": "`+secretPass+`"}}}}}}`)
	write(t, project, `{"mcpServers": {
		"a": {"command": "x", "autoApprove": ["get_*"], "alwaysAllow": ["y"], "inheritEnv": false},
		"b": {"type": "http", "url": "https://example.com/mcp", "oauth": {"clientId": "abc"}, "autoApprove": []},
		"c": {"command": "z"}}}`)
	var log logRecords
	_, err := LoadConfigFiles([]ConfigFile{{Path: user}, {Path: project}, {Path: user, Project: "/src/app"}},
		&ConfigOptions{Logger: log.logger()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range log.records {
		if r.level != slog.LevelWarn || r.msg != "config key not used by plainmcp" {
			t.Errorf("record %+v", r)
		}
		got = append(got, fmt.Sprintf("%s %s %s %s", r.attrs["source"], r.attrs["at"], r.attrs["key"], r.attrs["servers"]))
	}
	want := []string{
		user + "  autoApprove [gh]",
		project + "  alwaysAllow [a]",
		project + "  autoApprove [a b]",
		user + ` projects["/src/app"].mcpServers oauth [db]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("logged (-want +got):\n%s", diff)
	}
	checkNoSecrets(t, "log", fmt.Sprint(log.records))

	// Without a logger, nothing is reported and the keys are still kept.
	c, err := LoadConfigFiles([]ConfigFile{{Path: project}}, nil)
	if err != nil || string(c.Server("b").Extra["oauth"]) != `{"clientId": "abc"}` {
		t.Errorf("LoadConfigFiles without a logger: %v, %v", c, err)
	}
}

// The local scope: projects[dir].mcpServers of ~/.claude.json, for the
// project directory dir and no other.
func TestLoadConfigFilesProjectScope(t *testing.T) {
	dir := t.TempDir()
	app := filepath.Join(dir, "app")
	if err := os.Mkdir(app, 0o755); err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(dir, ".claude.json")
	write(t, claude, fmt.Sprintf(`{
		"mcpServers": {"user": {"command": "user-mcp"}},
		"projects": {
			%q: {"mcpServers": {"local": {"command": "local-mcp", "args": ["${HOME}"]}}, "allowedTools": []},
			%q: {"mcpServers": {"other": {"command": "other-mcp"}}},
			"/no/servers": {"allowedTools": []},
			"/null/servers": {"mcpServers": null}
		}}`, app, app+"-other"))
	load := func(project string) ([]string, error) {
		c, err := LoadConfigFiles([]ConfigFile{{Path: claude, Project: project}}, &ConfigOptions{Env: configEnv})
		if err != nil {
			return nil, err
		}
		var names []string
		for _, s := range c.Servers {
			names = append(names, s.Name+" "+s.Source)
		}
		return names, nil
	}
	link := filepath.Join(dir, "link")
	linked := os.Symlink(app, link) == nil
	for _, tc := range []struct {
		project string
		want    []string
	}{
		{app, []string{"local " + claude}},
		{app + string(filepath.Separator), []string{"local " + claude}}, // the same path, cleaned
		{app + "-other", []string{"other " + claude}},
		{filepath.Join(dir, "elsewhere"), nil},
		{"/no/servers", nil},
		{"/null/servers", nil},
		{link, []string{"local " + claude}}, // the same directory through a link
	} {
		if tc.project == link && !linked {
			continue
		}
		got, err := load(tc.project)
		if err != nil {
			t.Errorf("%s: %v", tc.project, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.project, diff)
		}
	}

	// Errors name the file and the place of the servers in it.
	for _, tc := range []struct{ doc, want string }{
		{`{"projects": []}`, `: projects: want an object`},
		{`{"projects": {"/src/app": []}}`, `: projects["/src/app"]: want an object`},
		{`{"projects": {"/src/app": {"mcpServers": "x"}}}`, `: projects["/src/app"].mcpServers: want an object`},
		{`{"projects": {"/src/app": {"mcpServers": {"db": {"command": "x", "args": ["${DB_PASSWORD}", "${NOPE}"]}}}}}`,
			`: projects["/src/app"].mcpServers: server "db": args[1]: ${NOPE} is not set`},
	} {
		write(t, claude, tc.doc)
		_, err := LoadConfigFiles([]ConfigFile{{Path: claude, Project: "/src/app"}}, &ConfigOptions{Env: configEnv})
		if !errors.Is(err, ErrConfig) || err.Error() != claude+tc.want {
			t.Errorf("%s:\n  error %v\n  want %s%s", tc.doc, err, claude, tc.want)
		}
		checkNoSecrets(t, "error", fmt.Sprint(err))
	}
}

func TestLoadConfigFilesOptional(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	c, err := LoadConfigFiles([]ConfigFile{{Path: missing, Optional: true}, {Path: missing, Project: dir, Optional: true}}, nil)
	if err != nil || len(c.Servers) != 0 {
		t.Errorf("optional missing files: %v, %v", c, err)
	}
	if _, err := LoadConfigFiles([]ConfigFile{{Path: missing}}, nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file that is not optional: %v", err)
	}
	if _, err := LoadConfigFiles([]ConfigFile{{Path: dir, Optional: true}}, nil); err == nil {
		t.Errorf("a directory: no error")
	}
}

// fakeHome makes dir the home directory and unsets CLAUDE_CONFIG_DIR for
// the rest of the test.
func fakeHome(t *testing.T, dir string) {
	t.Setenv("HOME", dir)
	t.Setenv("USERPROFILE", dir) // Windows
	t.Setenv("home", dir)        // Plan 9
	t.Setenv("CLAUDE_CONFIG_DIR", "")
}

func TestClaudeCodeFiles(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	fakeHome(t, home)
	user := filepath.Join(home, ".claude.json")
	got, err := ClaudeCodeFiles(project)
	if err != nil {
		t.Fatal(err)
	}
	want := []ConfigFile{
		{Path: user, Optional: true, Scope: ScopeUser},
		{Path: filepath.Join(project, ".mcp.json"), Optional: true, Scope: ScopeProject, Approvals: &Approvals{}},
		{Path: user, Project: project, Optional: true, Scope: ScopeLocal},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}

	// Relative to the working directory, made absolute.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"", "."} {
		got, err := ClaudeCodeFiles(dir)
		if err != nil || got[2].Project != wd || got[1].Path != filepath.Join(wd, ".mcp.json") {
			t.Errorf("ClaudeCodeFiles(%q) = %+v, %v; want the working directory", dir, got, err)
		}
	}

	// CLAUDE_CONFIG_DIR moves ~/.claude.json.
	alt := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", alt)
	got, _ = ClaudeCodeFiles(project)
	if p := filepath.Join(alt, ".claude.json"); got[0].Path != p || got[2].Path != p {
		t.Errorf("with CLAUDE_CONFIG_DIR: %+v", got)
	}

	// No home: only the project's file.
	fakeHome(t, "")
	if runtime.GOOS != "windows" && runtime.GOOS != "plan9" {
		got, err = ClaudeCodeFiles(project)
		if err != nil || len(got) != 1 || got[0].Path != filepath.Join(project, ".mcp.json") {
			t.Errorf("without a home: %+v, %v", got, err)
		}
	}
}

// The scopes merge as Claude Code ranks them: local over project over
// user, each server whole.
func TestClaudeCodeFilesPrecedence(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	fakeHome(t, home)
	files, err := ClaudeCodeFiles(project)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing written yet: no servers, no error.
	c, err := LoadConfigFiles(files, nil)
	if err != nil || len(c.Servers) != 0 {
		t.Fatalf("no files: %v, %v", c, err)
	}

	claude := filepath.Join(home, ".claude.json")
	mcp := filepath.Join(project, ".mcp.json")
	write(t, claude, fmt.Sprintf(`{
		"numStartups": 3,
		"mcpServers": {"a": {"command": "user-a"}, "b": {"command": "user-b"}, "c": {"command": "user-c"}},
		"projects": {
			%q: {"mcpServers": {"c": {"type": "stdio", "command": "local-c", "args": [], "env": {}}, "d": {"url": "https://local.example/mcp"}}},
			"/another/project": {"mcpServers": {"e": {"command": "other-e"}}}
		}}`, project))
	write(t, mcp, `{"mcpServers": {"b": {"command": "project-b", "args": ["-v"]}, "c": {"command": "project-c"}}}`)

	c, err = LoadConfigFiles(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range c.Servers {
		got = append(got, fmt.Sprintf("%s %s %s%s (%s)", s.Name, s.Type, s.Command, s.URL, filepath.Base(s.Source)))
	}
	want := []string{
		"a stdio user-a (.claude.json)",
		"b stdio project-b (.mcp.json)",
		"c stdio local-c (.claude.json)",
		"d http https://local.example/mcp (.claude.json)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
}
