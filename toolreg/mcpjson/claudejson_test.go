package mcpjson

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigStateFile writes a ~/.claude.json of about size bytes, most of it
// other projects' state, with servers in the user scope and in the
// project /src/app, and returns its path.
func bigStateFile(tb testing.TB, size int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString(`{"numStartups": 3, "mcpServers": {"gh": {"type": "stdio", "command": "gh-mcp"}}, "projects": {`)
	history := `{"display": "` + strings.Repeat("x", 1000) + `", "pastedContents": {}}`
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `"/src/p%d": {"history": [%s, %s, %s], "allowedTools": []}, `, i, history, history, history)
	}
	b.WriteString(`"/src/app": {"mcpServers": {"db": {"command": "db-mcp"}}, "enabledMcpjsonServers": ["x"]}}}`)
	path := filepath.Join(tb.TempDir(), ".claude.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// Claude Code's state file is read for its servers and approvals alone,
// whatever else it holds; one over the cap is a clear error.
func TestStateFileReadForItsServers(t *testing.T) {
	path := bigStateFile(t, 2<<20)
	cfg, err := LoadConfigFiles([]ConfigFile{{Path: path, Scope: ScopeUser}, {Path: path, Project: "/src/app", Scope: ScopeLocal}}, nil)
	if err != nil || len(cfg.Servers) != 2 || cfg.Server("gh") == nil || cfg.Server("db") == nil {
		t.Fatalf("servers %v, %v", cfg.Servers, err)
	}
	if a, err := ReadApprovals(path, "", "/src/app"); err != nil || a.State("x") != Approved || a.State("y") != Pending {
		t.Errorf("approvals %+v, %v", a, err)
	}

	huge := filepath.Join(t.TempDir(), ".claude.json")
	if err := os.WriteFile(huge, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, maxStateFileSize+1); err != nil { // sparse: no disk used
		t.Skip(err)
	}
	_, err = LoadConfigFiles([]ConfigFile{{Path: huge, Scope: ScopeUser}}, nil)
	if !errors.Is(err, errTooLarge) || !strings.Contains(err.Error(), huge) {
		t.Errorf("err = %v, want errTooLarge naming the file", err)
	}
}

// BenchmarkStateFile reads the servers of a 32 MiB ~/.claude.json: as a
// state file (a stream that keeps only the servers), and whole, as any
// other config file is read, for comparison (what every file cost before).
func BenchmarkStateFile(b *testing.B) {
	path := bigStateFile(b, 32<<20)
	for _, bc := range []struct {
		name string
		file ConfigFile
	}{
		{"stream", ConfigFile{Path: path, Scope: ScopeUser}},
		{"whole", ConfigFile{Path: path}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if cfg, err := LoadConfigFiles([]ConfigFile{bc.file}, nil); err != nil || len(cfg.Servers) != 1 {
					b.Fatal(cfg, err)
				}
			}
		})
	}
}

// FuzzStateFile checks the stream reader of ~/.claude.json against the
// whole-file reader: for any file, both find the same servers, user scope
// and local, or both fail; neither panics.
func FuzzStateFile(f *testing.F) {
	f.Add(`{"mcpServers": {"gh": {"command": "gh"}}, "projects": {"/src/app": {"mcpServers": {"db": {"command": "db"}}}}}`)
	f.Add(`{"projects": {"/src/app": null, "/other": {"history": [1, [2, {"a": "}"}]]}}}`)
	f.Add(`{"projects": {"/src/app": {"mcpServers": {"x": {"url": "https://e.com"}}, "enabledMcpjsonServers": ["x"]}}}`)
	f.Add(`{"mcpServers": null, "projects": []}`)
	f.Add(`[1, 2]`)
	f.Fuzz(func(t *testing.T, doc string) {
		dir := t.TempDir()
		path := filepath.Join(dir, ".claude.json")
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, project := range []string{"", "/src/app"} {
			streamed, serr := LoadConfigFiles([]ConfigFile{{Path: path, Project: project, Scope: ScopeLocal}}, nil)
			whole, werr := parseConfig([]byte(doc), path, project, nil)
			if (serr == nil) != (werr == nil) {
				// The whole reader rejects what it reads; the stream
				// reader reads only the servers' part: a fault elsewhere
				// may pass it, never the other way round.
				if serr != nil {
					t.Fatalf("project %q: the stream failed (%v) where the whole file did not", project, serr)
				}
				continue
			}
			if len(streamed.Servers) != len(whole.Servers) {
				t.Fatalf("project %q: %d servers streamed, %d whole", project, len(streamed.Servers), len(whole.Servers))
			}
			for i := range whole.Servers {
				if streamed.Servers[i].Name != whole.Servers[i].Name || streamed.Servers[i].Command != whole.Servers[i].Command {
					t.Fatalf("project %q: server %d differs", project, i)
				}
			}
		}
	})
}
