package integration

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
	"github.com/plainmcp/plainmcp/toolreg/remote"
)

// registryConfig is a real .mcp.json naming three npm servers. Every path
// comes from a ${VAR} reference, so the file reads as a user would write it.
const registryConfig = `{
  "mcpServers": {
    "everything": {"command": "node", "args": ["${EVERYTHING_JS}", "stdio"]},
    "fs": {"type": "stdio", "command": "node", "args": ["${FILESYSTEM_JS}", "${FS_ROOT}"]},
    "memory": {
      "command": "node",
      "args": ["${MEMORY_JS}"],
      "env": {"MEMORY_FILE_PATH": "${MEMORY_DIR}/graph.jsonl"}
    }
  }
}`

// workspace is a temporary directory with what the servers work on: the
// filesystem server's allowed directory, seeded with files, a file outside
// it, and the memory server's graph file.
type workspace struct {
	dir     string            // holds the config files and the graph file
	root    string            // the filesystem server's allowed directory
	outside string            // a file the filesystem server must not read
	env     map[string]string // what the config's ${VAR} references name
}

// newWorkspace seeds a workspace, or skips the test when the environment
// does not name the servers' entry points.
func newWorkspace(t *testing.T) *workspace {
	t.Helper()
	env := map[string]string{}
	for name, envVar := range map[string]string{
		"EVERYTHING_JS": "PLAINMCP_EVERYTHING", "FILESYSTEM_JS": "PLAINMCP_FILESYSTEM", "MEMORY_JS": "PLAINMCP_MEMORY",
	} {
		entry := os.Getenv(envVar)
		if entry == "" {
			t.Skipf("%s not set: run `make integration`", envVar)
		}
		env[name] = entry
	}
	// The filesystem server resolves symbolic links in its allowed
	// directories; resolve ours too, so the paths it reports are ours.
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &workspace{dir: dir, root: filepath.Join(dir, "root"), outside: filepath.Join(dir, "secret.txt"), env: env}
	w.env["FS_ROOT"], w.env["MEMORY_DIR"] = w.root, dir
	for name, content := range map[string]string{
		"root/notes.txt":   "plainmcp notes\nline two\n",
		"root/docs/one.md": "# One\n",
		"secret.txt":       "not for the filesystem server\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// writeConfig writes a config file into the workspace and returns its path.
func (w *workspace) writeConfig(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(w.dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// load writes body as a config file and loads it, with the workspace's
// variables, and only those, for ${VAR}.
func (w *workspace) load(t *testing.T, name, body string) *toolreg.Config {
	t.Helper()
	cfg, err := mcpjson.LoadConfig([]string{w.writeConfig(t, name, body)}, &mcpjson.ConfigOptions{
		Env: func(name string) (string, bool) { v, ok := w.env[name]; return v, ok },
	})
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	return cfg
}

// startRegistry connects cfg's servers and closes them, within a bound,
// when the test ends.
func startRegistry(t *testing.T, cfg *toolreg.Config, opts *toolreg.Options) *toolreg.Registry {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	reg, err := remote.New(ctx, cfg, opts) // every transport: some workspaces have http servers
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Logf("New returned in %v", time.Since(start).Round(time.Millisecond))
	t.Cleanup(func() { closeWithin(t, reg, 20*time.Second) })
	return reg
}

func closeWithin(t *testing.T, reg *toolreg.Registry, bound time.Duration) {
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- reg.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
		t.Logf("Close took %v", time.Since(start).Round(time.Millisecond))
	case <-time.After(bound):
		t.Errorf("Close did not return within %v", bound)
	}
}

// call makes a tool call that must succeed as a call; the result may still
// report a tool error.
func call(t *testing.T, reg *toolreg.Registry, name string, args any) *toolreg.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := reg.Call(ctx, name, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.Duration <= 0 {
		t.Errorf("%s: duration %v", name, res.Duration)
	}
	return res
}
