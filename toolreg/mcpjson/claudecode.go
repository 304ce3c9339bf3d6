package mcpjson

import (
	"os"
	"path/filepath"
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
	project := ConfigFile{Path: filepath.Join(dir, ".mcp.json"), Optional: true}
	user := claudeCodeUserFile()
	if user == "" {
		return []ConfigFile{project}, nil
	}
	return []ConfigFile{
		{Path: user, Optional: true},
		project,
		{Path: user, Project: dir, Optional: true},
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
