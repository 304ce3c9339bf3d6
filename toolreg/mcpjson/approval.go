package mcpjson

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
	if err == nil && len(data) > MaxConfigFileSize {
		err = fmt.Errorf("%w: %s", ErrTooLarge, settingsFile)
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
	if st, err := f.Stat(); err == nil && st.Size() > MaxStateFileSize {
		return nil, fmt.Errorf("%w: %s is %d bytes, over the %d that plainmcp reads", ErrTooLarge, userFile, st.Size(), MaxStateFileSize)
	}
	dec := json.NewDecoder(bufio.NewReaderSize(io.LimitReader(f, MaxStateFileSize), 64<<10))
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
				}
				return false, nil
			})
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reading the MCP server approvals of %s in %s: %w", dir, userFile, err)
	}
	return &Approvals{All: keys.All, Enabled: keys.Enabled, Disabled: keys.Disabled}, nil
}

// SaveApproval records the user's answer for the project server called
// name where Claude Code keeps it: in userFile (~/.claude.json), the
// project's enabledMcpjsonServers or disabledMcpjsonServers. The rest of
// the file is kept as it was; the file is replaced at once (a new file
// renamed over it), with its mode.
func SaveApproval(userFile, dir, name string, approved bool) error {
	data, err := os.ReadFile(userFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	top := map[string]json.RawMessage{}
	if len(data) > 0 {
		if err := json.Unmarshal(data, &top); err != nil {
			return fmt.Errorf("%s: %w", userFile, err)
		}
	}
	projects, key, entry, err := projectEntry(top, dir)
	if err != nil {
		return fmt.Errorf("%s: %w", userFile, err)
	}
	if err := setAnswer(entry, name, approved); err != nil {
		return fmt.Errorf("%s: projects[%q]: %w", userFile, key, err)
	}
	var merr error
	if projects[key], merr = json.Marshal(entry); merr == nil {
		if top["projects"], merr = json.Marshal(projects); merr == nil {
			data, merr = json.MarshalIndent(top, "", "  ")
		}
	}
	if merr != nil {
		return merr
	}
	return replaceFile(userFile, data)
}

// projectEntry decodes the projects of a ~/.claude.json and the entry of
// the project in dir (an empty one if there is none), with its key.
func projectEntry(top map[string]json.RawMessage, dir string) (projects map[string]json.RawMessage, key string, entry map[string]json.RawMessage, err error) {
	projects = map[string]json.RawMessage{}
	if raw := top["projects"]; raw != nil {
		if err := json.Unmarshal(raw, &projects); err != nil {
			return nil, "", nil, fmt.Errorf("projects: %w", err)
		}
	}
	key = dir
	for k := range projects {
		if sameDir(k, dir) {
			key = k
		}
	}
	entry = map[string]json.RawMessage{}
	if raw := projects[key]; raw != nil && string(raw) != "null" {
		if err := json.Unmarshal(raw, &entry); err != nil {
			return nil, "", nil, fmt.Errorf("projects[%q]: %w", key, err)
		}
	}
	return projects, key, entry, nil
}

// setAnswer puts name in the list of its answer and out of the other one.
func setAnswer(entry map[string]json.RawMessage, name string, approved bool) error {
	add, drop := "enabledMcpjsonServers", "disabledMcpjsonServers"
	if !approved {
		add, drop = drop, add
	}
	for _, k := range []string{add, drop} {
		var list []string
		if raw := entry[k]; raw != nil {
			if err := json.Unmarshal(raw, &list); err != nil {
				return fmt.Errorf("%s: want a list of names", k)
			}
		}
		list = slices.DeleteFunc(list, func(s string) bool { return s == name })
		if k == add {
			list = append(list, name)
		}
		raw, _ := json.Marshal(list)
		entry[k] = raw
	}
	return nil
}

// replaceFile writes data to a new file beside path and renames it over
// path, keeping path's mode (0600 for a new file).
func replaceFile(path string, data []byte) error {
	mode := fs.FileMode(0o600)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".claude.json.*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing is there
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
