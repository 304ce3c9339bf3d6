package mcpjson

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
)

// The approval states of a project-scope server (ServerConfig.Approval).
// A project's .mcp.json comes with its repository, which anyone may have
// written, so Claude Code starts none of its servers until the user
// approved them, and keeps the answers in ~/.claude.json, under the
// project's directory: enableAllProjectMcpServers, enabledMcpjsonServers
// and disabledMcpjsonServers. plainmcp reads the same answers, so a
// server approved in one is approved in the other, and the registry
// starts no server that is not approved.
const (
	Approved = "approved"
	Pending  = "pending" // not answered yet: ask the user
	Rejected = "rejected"
)

// Approvals are the user's answers for one project's .mcp.json servers.
type Approvals struct {
	All      bool     // enableAllProjectMcpServers: every server approved
	Enabled  []string // enabledMcpjsonServers
	Disabled []string // disabledMcpjsonServers, which win over the others
	// Off are the servers of any scope that the user turned off in this
	// project (disabledMcpServers, as Claude Code's /mcp disable keeps
	// them): a load with these Approvals makes them Disabled.
	Off []string
}

// State is the approval state of the project server called name.
func (a *Approvals) State(name string) string {
	switch {
	case a == nil:
		return Pending
	case slices.Contains(a.Disabled, name):
		return Rejected
	case a.All || slices.Contains(a.Enabled, name):
		return Approved
	}
	return Pending
}

// approvalKeys are where Claude Code keeps the answers in a project's
// entry of ~/.claude.json.
type approvalKeys struct {
	All      bool     `json:"enableAllProjectMcpServers"`
	Enabled  []string `json:"enabledMcpjsonServers"`
	Disabled []string `json:"disabledMcpjsonServers"`
	Off      []string `json:"disabledMcpServers"`
}

// ReadApprovals reads the answers for the project in directory dir (an
// absolute path): from userFile, Claude Code's ~/.claude.json, under the
// project (read as a stream that keeps only those keys), and from
// settingsFile, the user's Claude Code settings (~/.claude/settings.json),
// where the same three keys apply to every project. Either may be "" or
// missing. The answers are never read from the project's own files: a
// repository must not approve itself.
func ReadApprovals(userFile, settingsFile, dir string) (*Approvals, error) {
	a, err := readProjectApprovals(userFile, dir)
	if err != nil || settingsFile == "" {
		return a, err
	}
	data, err := os.ReadFile(settingsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return a, nil
	}
	var keys approvalKeys
	if err == nil && len(data) > maxConfigFileSize {
		err = fmt.Errorf("%w: %s", errTooLarge, settingsFile)
	}
	if err == nil {
		err = json.Unmarshal(data, &keys)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the MCP server approvals in %s: %w", settingsFile, err)
	}
	a.All = a.All || keys.All
	a.Enabled = append(a.Enabled, keys.Enabled...)
	a.Disabled = append(a.Disabled, keys.Disabled...)
	return a, nil
}

// readProjectApprovals reads the answers of ~/.claude.json's
// projects[dir].
func readProjectApprovals(userFile, dir string) (*Approvals, error) {
	if userFile == "" {
		return &Approvals{}, nil
	}
	f, err := os.Open(userFile)
	if errors.Is(err, fs.ErrNotExist) {
		return &Approvals{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxStateFileSize {
		return nil, fmt.Errorf("%w: %s is %d bytes, over the %d that plainmcp reads", errTooLarge, userFile, st.Size(), maxStateFileSize)
	}
	dec := json.NewDecoder(bufio.NewReaderSize(io.LimitReader(f, maxStateFileSize), 64<<10))
	var keys approvalKeys
	found := false
	err = scanObject(dec, func(k string) (bool, error) {
		if k != "projects" {
			return false, nil
		}
		return true, scanObject(dec, func(key string) (bool, error) {
			if found || !sameDir(key, dir) {
				return false, nil
			}
			found = true
			return true, scanObject(dec, func(k string) (bool, error) {
				switch k {
				case "enableAllProjectMcpServers":
					return true, dec.Decode(&keys.All)
				case "enabledMcpjsonServers":
					return true, dec.Decode(&keys.Enabled)
				case "disabledMcpjsonServers":
					return true, dec.Decode(&keys.Disabled)
				case "disabledMcpServers":
					return true, dec.Decode(&keys.Off)
				}
				return false, nil
			})
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reading the MCP server approvals of %s in %s: %w", dir, userFile, err)
	}
	return &Approvals{All: keys.All, Enabled: keys.Enabled, Disabled: keys.Disabled, Off: keys.Off}, nil
}
