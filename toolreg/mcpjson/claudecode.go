package mcpjson

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
)

// ClaudeCodeFiles returns the files Claude Code reads MCP servers from
// when it runs in projectDir ("" is the working directory), in the order
// for [LoadConfigFiles], so that a server of the same name in a later file
// wins, as Claude Code ranks its scopes:
//
//  1. user scope: the top-level mcpServers of ~/.claude.json;
//  2. project scope: .mcp.json in projectDir;
//  3. local scope: projects[projectDir].mcpServers in ~/.claude.json,
//     projectDir made absolute.
//
// ~/.claude.json is .claude.json in $CLAUDE_CONFIG_DIR if that is set,
// as Claude Code has it, else in the home directory; with neither, only
// the project file is returned. Every file is Optional, since any may be
// missing. Claude Code's settings.json files hold no servers and are not
// among them.
//
//	files, err := mcpjson.ClaudeCodeFiles(".")
//	…
//	cfg, err := mcpjson.LoadConfigFiles(files, nil)
//
// The error is that of making projectDir absolute.
func ClaudeCodeFiles(projectDir string) ([]ConfigFile, error) {
	if projectDir == "" {
		projectDir = "."
	}
	dir, err := filepath.Abs(projectDir)
	if err != nil {
		return nil, err
	}
	project := ConfigFile{Path: filepath.Join(dir, ".mcp.json"), Optional: true, Scope: ScopeProject}
	user := claudeCodeUserFile()
	if user == "" {
		return []ConfigFile{project}, nil
	}
	return []ConfigFile{
		{Path: user, Optional: true, Scope: ScopeUser},
		project,
		{Path: user, Project: dir, Optional: true, Scope: ScopeLocal},
	}, nil
}

// claudeCodeUserFile is the path of Claude Code's ~/.claude.json, or "" if
// there is no home directory to find it in.
func claudeCodeUserFile() string {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, ".claude.json")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".claude.json")
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
