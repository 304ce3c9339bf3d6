package mcpjson

import (
	"bytes"
	"context"
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
//
// Claude Code rewrites the same file often, so SaveApproval takes Claude
// Code's lock on it (the directory userFile+".lock"; it waits for a
// holder as long as ctx lets it and at most 12 s, and takes over a lock
// its holder left 10 s untouched), and a change another program wrote
// while it edited is kept: it reads the file again just before replacing
// it, and starts over if it changed. A lock that stays held, a file that
// keeps changing, and a file that is not a JSON object (an empty one
// included) are errors, and nothing is written.
func SaveApproval(ctx context.Context, userFile, dir, name string, approved bool) error {
	return editProject(ctx, claudeLock, userFile, dir, true, func(entry []jsonMember) ([]jsonMember, error) {
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
// The file is written as SaveApproval writes it, under the same lock.
func ResetApprovals(ctx context.Context, userFile, dir string) error {
	return editProject(ctx, claudeLock, userFile, dir, false, func(entry []jsonMember) ([]jsonMember, error) {
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

// editAttempts bounds how often editProject starts over when another
// program changed the file while it was editing it.
const editAttempts = 5

// errChangedMeanwhile is wrapped by the error of an edit given up because
// another program kept changing the file.
var errChangedMeanwhile = errors.New("mcpjson: file changed by another program while being edited")

// editProject rewrites the entry of the project in dir in userFile with
// edit, keeping everything else as it was. A missing file or project is
// made when create is set, and otherwise left alone.
//
// Claude Code writes the same file, often: editProject holds its lock
// (see stateLock) while it reads, edits and writes, and reads the file
// again just before replacing it, starting over from what is there if it
// changed (so a change written meanwhile is kept, not lost); after
// editAttempts changes in a row it gives up and writes nothing. A file it
// cannot read as a JSON object, an empty one included (Claude Code may be
// writing it in place), is never replaced.
func editProject(ctx context.Context, lock stateLock, userFile, dir string, create bool, edit func([]jsonMember) ([]jsonMember, error)) error {
	release, err := lock.lockFile(ctx, userFile)
	if err != nil {
		return fmt.Errorf("%s: %w", userFile, err)
	}
	defer release()
	for range editAttempts {
		data, out, err := editedFile(userFile, dir, create, edit)
		if err != nil || out == nil {
			return err
		}
		err = replaceFile(userFile, data, out)
		if !errors.Is(err, errChangedMeanwhile) {
			return err
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: %w", userFile, context.Cause(ctx))
		}
	}
	return fmt.Errorf("%w: %s, %d times in a row; nothing was written, try again", errChangedMeanwhile, userFile, editAttempts)
}

// editedFile reads userFile and returns what it read (nil for no file)
// and the file edit makes of it, or nil for nothing to write.
func editedFile(userFile, dir string, create bool, edit func([]jsonMember) ([]jsonMember, error)) (data, out []byte, err error) {
	data, top, err := readTop(userFile)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !create:
		return nil, nil, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, nil, err
	}
	projects, n := findMember(top, "projects")
	if (n == 0 || isJSONNull(projects)) && !create {
		return nil, nil, nil
	}
	newProjects, err := editProjectIn(projects, dir, create, edit)
	if err != nil || newProjects == nil {
		return nil, nil, wrapPath(userFile, err)
	}
	top = setMember(top, "projects", newProjects)
	var buf bytes.Buffer
	if err := json.Indent(&buf, encodeObject(top), "", "  "); err != nil {
		return nil, nil, err
	}
	if data == nil || bytes.HasSuffix(data, []byte("\n")) {
		buf.WriteByte('\n')
	}
	return data, buf.Bytes(), nil
}

// wrapPath is err naming the file, or nil.
func wrapPath(path string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", path, err)
}

// readTop reads the file's bytes and its top-level members. A file
// that does not exist is an error that matches fs.ErrNotExist (and
// nil bytes); one that is not a JSON object, or is empty, is an error.
func readTop(userFile string) ([]byte, []jsonMember, error) {
	data, err := os.ReadFile(userFile)
	if err != nil {
		return nil, nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, fmt.Errorf("%s: the file is empty (is another program writing it?): not replaced", userFile)
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
// path, keeping path's mode (0600 for a new file), unless path no longer
// holds was (nil: no file): then it writes nothing and returns an error
// that wraps errChangedMeanwhile. What path holds is read again last,
// once the new file is written, to keep the window in which another
// writer's change could still be lost as short as it can be. A path that
// is a symbolic link (a ~/.claude.json kept in a dotfiles folder) is
// written where it points, so the link stays a link and the file it names
// is the one that changes.
func replaceFile(path string, was, data []byte) error {
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
	if err := writeSynced(tmp, data, mode); err != nil {
		return err
	}
	if err := unchanged(path, was); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// writeSynced writes data to f, in mode, and closes it once on disk.
func writeSynced(f *os.File, data []byte, mode fs.FileMode) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// unchanged reports, as an error wrapping errChangedMeanwhile, that path
// does not hold was (nil: that there is a file at path).
func unchanged(path string, was []byte) error {
	now, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && was == nil:
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	case err == nil && was != nil && bytes.Equal(now, was):
		return nil
	}
	return fmt.Errorf("%w: %s", errChangedMeanwhile, path)
}
