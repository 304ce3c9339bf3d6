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
// The project's servers start only once the user approved them, as in
// Claude Code: the project file carries the answers (Approvals) that
// ~/.claude.json and the user's settings hold for the directory (see
// ReadApprovals), and each of its servers' ServerConfig.Approval says
// where it stands.
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
	user, settings := claudeCodeUserFiles()
	// The project's servers start once approved. Answers that cannot be
	// read are none: every server waits for the user.
	approvals, err := ReadApprovals(user, settings, dir)
	if err != nil {
		approvals = &Approvals{}
	}
	project := ConfigFile{Path: filepath.Join(dir, ".mcp.json"), Optional: true, Scope: ScopeProject, Approvals: approvals}
	if user == "" {
		return []ConfigFile{project}, nil
	}
	return []ConfigFile{
		{Path: user, Optional: true, Scope: ScopeUser},
		project,
		{Path: user, Project: dir, Optional: true, Scope: ScopeLocal},
	}, nil
}

// claudeCodeUserFiles are the paths of Claude Code's ~/.claude.json and
// of the user's settings, ~/.claude/settings.json (both in
// $CLAUDE_CONFIG_DIR if that is set), or "" if there is no home directory
// to find them in.
func claudeCodeUserFiles() (user, settings string) {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, ".claude.json"), filepath.Join(dir, "settings.json")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", ""
	}
	return filepath.Join(home, ".claude.json"), filepath.Join(home, ".claude", "settings.json")
}

// ClaudeCodeUserFile is the path of Claude Code's ~/.claude.json (in
// $CLAUDE_CONFIG_DIR if that is set), where SaveApproval keeps the user's
// answers; "" if there is no home directory.
func ClaudeCodeUserFile() string {
	user, _ := claudeCodeUserFiles()
	return user
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
