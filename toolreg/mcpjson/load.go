package mcpjson

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
)

// LoadConfig reads the files at paths, in order, and merges them: a
// server in a later file replaces the whole entry of the same name from
// an earlier one (a user file, then a project's .mcp.json).
//
// One unusable entry never costs the others: the Config holds every
// server that could be used, and the error, if not nil, reports the rest,
// one [*ConfigError] per entry (its file, server and key) or per file
// whose content is wrong (see [ConfigErrors]), and the os error of a file
// that could not be read (fs.ErrNotExist for a missing one, unless
// opts.SkipMissing), all joined. An entry left out also hides the entry of
// the same name in an earlier file: the server the user wrote last is the
// one that counts, and it is not replaced by an older one unnoticed.
func LoadConfig(paths []string, opts *ConfigOptions) (*Config, error) {
	files := make([]ConfigFile, len(paths))
	for i, p := range paths {
		files[i] = ConfigFile{Path: p}
	}
	return LoadConfigFiles(files, opts)
}

// LoadConfigFiles is [LoadConfig] for files that may be optional, hold
// their servers under a project, or carry a scope, such as those
// [ClaudeCodeFiles] returns. The files merge in order, a later one
// winning, as in LoadConfig, and the Config is never nil.
func LoadConfigFiles(files []ConfigFile, opts *ConfigOptions) (*Config, error) {
	m := &merger{index: map[string]int{}}
	var errs []error
	var off []string // turned off in the project, whatever their scope
	for _, f := range files {
		if f.Approvals != nil {
			off = append(off, f.Approvals.Off...)
		}
		data, err := readConfigFile(f)
		if err != nil {
			if (f.Optional || opts != nil && opts.SkipMissing) && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			errs = append(errs, fmt.Errorf("reading config: %w", err))
			continue
		}
		c, err := parseConfig(data, f.Path, f.Project, opts)
		for _, s := range c.Servers {
			s.Scope = f.Scope
			if f.Approvals != nil {
				s.Approval = f.Approvals.State(s.Name)
			}
		}
		m.add(c.Servers, ConfigErrors(err))
		errs = append(errs, err)
	}
	servers := m.servers()
	for _, s := range servers {
		if slices.Contains(off, s.Name) {
			s.Disabled = true
		}
	}
	return &Config{Servers: servers}, errors.Join(errs...)
}

// merger merges the servers of several files, in order.
type merger struct {
	list  []*ServerConfig // nil where a server was left out
	index map[string]int
}

// add merges one file's servers, and leaves out the earlier entries of
// the names whose entries in this file failed.
func (m *merger) add(servers []*ServerConfig, failed []*ConfigError) {
	for _, e := range failed {
		if i, ok := m.index[e.Server]; ok && e.Server != "" {
			m.list[i] = nil
			delete(m.index, e.Server)
		}
	}
	for _, s := range servers {
		if i, ok := m.index[s.Name]; ok {
			m.list[i] = s
			continue
		}
		m.index[s.Name] = len(m.list)
		m.list = append(m.list, s)
	}
}

func (m *merger) servers() []*ServerConfig {
	var out []*ServerConfig
	for _, s := range m.list {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
}
