package mcpjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// SaveApproval records the user's answer for the project server called
// name where Claude Code keeps it: in userFile (~/.claude.json), the
// project's enabledMcpjsonServers or disabledMcpjsonServers (name is
// taken out of the other list). Only an answer the user gave should be
// saved: a question left unanswered (Enter, the end of input) means "not
// now", and saving a refusal for it would keep the server from starting
// in this project for good.
//
// The rest of the file is kept as it was: its keys in their order and
// their values as written, indented with two spaces as Claude Code writes
// it (so a file Claude Code wrote changes only where the answer goes). A
// list is never written as null. The file is replaced at once (a new file
// renamed over it), with its mode.
func SaveApproval(userFile, dir, name string, approved bool) error {
	return editProject(userFile, dir, true, func(entry []jsonMember) ([]jsonMember, error) {
		add, drop := "enabledMcpjsonServers", "disabledMcpjsonServers"
		if !approved {
			add, drop = drop, add
		}
		for _, k := range []string{add, drop} {
			var list []string
			if raw, n := findMember(entry, k); n > 0 && !isJSONNull(raw) {
				if err := json.Unmarshal(raw, &list); err != nil {
					return nil, fmt.Errorf("%s: want a list of names", k)
				}
			}
			list = slices.DeleteFunc(list, func(s string) bool { return s == name })
			if k == add {
				list = append(list, name)
			}
			entry = setMember(entry, k, encodeJSON(list))
		}
		return entry, nil
	})
}

// ResetApprovals forgets the user's answers for the servers of the
// project in directory dir, as Claude Code's "claude mcp
// reset-project-choices" does: in userFile (~/.claude.json), the
// project's enabledMcpjsonServers and disabledMcpjsonServers become empty
// and enableAllProjectMcpServers false, so each server is asked about
// again. A file or a project with no answers is left as it is. Answers in
// the user's settings file apply to every project and are not touched.
// The file is written as SaveApproval writes it.
func ResetApprovals(userFile, dir string) error {
	return editProject(userFile, dir, false, func(entry []jsonMember) ([]jsonMember, error) {
		for _, k := range []string{"enabledMcpjsonServers", "disabledMcpjsonServers"} {
			if _, n := findMember(entry, k); n > 0 {
				entry = setMember(entry, k, json.RawMessage("[]"))
			}
		}
		if _, n := findMember(entry, "enableAllProjectMcpServers"); n > 0 {
			entry = setMember(entry, "enableAllProjectMcpServers", json.RawMessage("false"))
		}
		return entry, nil
	})
}

// editProject rewrites the entry of the project in dir in userFile with
// edit, keeping everything else as it was. A missing file or project is
// made when create is set, and otherwise left alone.
func editProject(userFile, dir string, create bool, edit func([]jsonMember) ([]jsonMember, error)) error {
	data, top, err := readTop(userFile)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !create:
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	projects, n := findMember(top, "projects")
	if (n == 0 || isJSONNull(projects)) && !create {
		return nil
	}
	newProjects, err := editProjectIn(projects, dir, create, edit)
	if err != nil {
		return fmt.Errorf("%s: %w", userFile, err)
	}
	if newProjects == nil {
		return nil
	}
	top = setMember(top, "projects", newProjects)
	var out bytes.Buffer
	if err := json.Indent(&out, encodeObject(top), "", "  "); err != nil {
		return err
	}
	if len(data) == 0 || bytes.HasSuffix(data, []byte("\n")) {
		out.WriteByte('\n')
	}
	return replaceFile(userFile, out.Bytes())
}

// readTop reads the file's bytes and its top-level members. A file
// that does not exist is an error that matches fs.ErrNotExist.
func readTop(userFile string) ([]byte, []jsonMember, error) {
	data, err := os.ReadFile(userFile)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return data, nil, err
	}
	top, ok := objectFields(data)
	if !ok || !json.Valid(data) {
		return nil, nil, fmt.Errorf("%s: want a JSON object", userFile)
	}
	return data, top, nil
}

// editProjectIn is editProject on the projects object; nil, nil means
// there was nothing to edit.
func editProjectIn(projects json.RawMessage, dir string, create bool, edit func([]jsonMember) ([]jsonMember, error)) (json.RawMessage, error) {
	var members []jsonMember
	if len(projects) > 0 && !isJSONNull(projects) {
		var ok bool
		if members, ok = objectFields(projects); !ok {
			return nil, errors.New("projects: want an object")
		}
	}
	key, found := dir, false
	for _, m := range members {
		if !found && sameDir(m.key, dir) {
			key, found = m.key, true
		}
	}
	if !found && !create {
		return nil, nil
	}
	var entry []jsonMember
	if raw, n := findMember(members, key); n > 0 && !isJSONNull(raw) {
		var ok bool
		if entry, ok = objectFields(raw); !ok {
			return nil, fmt.Errorf("projects[%q]: want an object", key)
		}
	}
	entry, err := edit(entry)
	if err != nil {
		return nil, fmt.Errorf("projects[%q]: %w", key, err)
	}
	return encodeObject(setMember(members, key, encodeObject(entry))), nil
}

// setMember sets key to val among members: where it was (every member of
// that key, if it appears more than once), or at the end.
func setMember(members []jsonMember, key string, val json.RawMessage) []jsonMember {
	found := false
	for i := range members {
		if members[i].key == key {
			members[i].val, found = val, true
		}
	}
	if !found {
		members = append(members, jsonMember{key, val})
	}
	return members
}

// encodeObject writes members as a JSON object, in order, each value as
// it is.
func encodeObject(members []jsonMember) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encodeJSON(m.key))
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// encodeJSON is v in JSON, as Claude Code writes it (<, > and & as they
// are), a nil list as []. v is a string or a list of strings, which
// always encode.
func encodeJSON(v any) json.RawMessage {
	if l, ok := v.([]string); ok && l == nil {
		return json.RawMessage("[]")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// replaceFile writes data to a new file beside path and renames it over
// path, keeping path's mode (0600 for a new file). A path that is a
// symbolic link (a ~/.claude.json kept in a dotfiles folder) is written
// where it points, so the link stays a link and the file it names is the
// one that changes.
func replaceFile(path string, data []byte) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	mode := fs.FileMode(0o600)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".claude.json.*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing is there
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
