package mcpjson

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// Size caps of the files a load reads. Claude Code's ~/.claude.json grows
// large in real use (it keeps each project's state in it), so it is read
// as a stream, keeping only the few keys plainmcp reads, and may be up to
// maxStateFileSize; any other config file is read whole, up to
// maxConfigFileSize. A larger file is an error that says so.
const (
	maxStateFileSize  = 1 << 30
	maxConfigFileSize = 64 << 20
)

// errTooLarge is wrapped by the error of a file over its size cap.
var errTooLarge = errors.New("mcpjson: file too large")

// readConfigFile reads a config file: whole, or, for Claude Code's
// ~/.claude.json (the user and local scopes), only its servers, as a small
// document of the same shape that parseConfig reads as it would the whole.
func readConfigFile(f ConfigFile) ([]byte, error) {
	file, err := os.Open(f.Path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	limit := int64(maxConfigFileSize)
	if f.Scope == ScopeUser || f.Scope == ScopeLocal || f.Project != "" {
		limit = maxStateFileSize
	}
	if st, err := file.Stat(); err == nil && st.Size() > limit {
		return nil, fmt.Errorf("%w: %s is %d bytes, over the %d that plainmcp reads", errTooLarge, f.Path, st.Size(), limit)
	}
	r := io.LimitReader(file, limit+1)
	if limit == maxConfigFileSize {
		data, err := io.ReadAll(r)
		if err == nil && int64(len(data)) > limit {
			err = fmt.Errorf("%w: %s is over the %d bytes that plainmcp reads", errTooLarge, f.Path, limit)
		}
		return data, err
	}
	data, err := reduceStateFile(bufio.NewReaderSize(r, 64<<10), f.Project)
	if errors.Is(err, errNotJSON) {
		// Not valid JSON: read it whole (it is small, then, or the cap
		// above stops it), so that the error says where.
		if _, serr := file.Seek(0, io.SeekStart); serr == nil {
			return io.ReadAll(io.LimitReader(file, limit))
		}
	}
	return data, err
}

var errNotJSON = errors.New("not a JSON object")

// reduceStateFile reads ~/.claude.json from r, keeping its top-level
// mcpServers or, with project set, the mcpServers of the projects entry
// that names the project directory: {"mcpServers": …} or
// {"projects": {"<key>": {"mcpServers": …}}}.
func reduceStateFile(r io.Reader, project string) ([]byte, error) {
	dec := json.NewDecoder(r)
	var servers json.RawMessage
	var key string
	err := scanObject(dec, func(k string) (bool, error) {
		switch {
		case project == "" && k == "mcpServers":
			return true, dec.Decode(&servers)
		case project != "" && k == "projects":
			return true, scanObject(dec, func(dir string) (bool, error) {
				if key != "" || !sameDir(dir, project) {
					return false, nil
				}
				key = dir
				return true, scanObject(dec, func(k string) (bool, error) {
					if k != "mcpServers" {
						return false, nil
					}
					return true, dec.Decode(&servers)
				})
			})
		}
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	switch {
	case servers == nil:
		return []byte("{}"), nil
	case project == "":
		return append(append([]byte(`{"mcpServers":`), servers...), '}'), nil
	}
	return append(append([]byte(`{"projects":{`+strconv.Quote(key)+`:{"mcpServers":`), servers...), "}}}"...), nil
}

// scanObject reads the JSON object that comes next in dec, calling visit
// with each key; visit reads the value itself and says so, or leaves it
// to be skipped. Nothing of a skipped value is kept.
func scanObject(dec *json.Decoder, visit func(key string) (read bool, err error)) error {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		if err == nil && tok == nil {
			return nil // null: no object, and nothing in it
		}
		return errNotJSON
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return errNotJSON
		}
		key, _ := tok.(string)
		read, err := visit(key)
		if err != nil {
			return err
		}
		if !read {
			if err := skipValue(dec); err != nil {
				return err
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return errNotJSON
	}
	return nil
}

// skipValue reads past the value that comes next in dec, token by token:
// nothing of it is kept, whatever its size.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return errNotJSON
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth <= 0 {
			return nil
		}
	}
}

// sameDir reports whether key, a projects key of ~/.claude.json, names
// the directory dir: the same string, the same path once cleaned (so that
// "C:/src/app" matches C:\src\app on Windows), or once the symbolic links
// in dir are resolved.
func sameDir(key, dir string) bool {
	if key == dir {
		return true
	}
	if key == "" {
		return false
	}
	clean := filepath.Clean(dir)
	if filepath.Clean(key) == clean {
		return true
	}
	resolved, err := filepath.EvalSymlinks(dir)
	return err == nil && resolved != clean && filepath.Clean(key) == resolved
}
