package mcpjson

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A project's servers start only once approved, with the answers Claude
// Code keeps (~/.claude.json under the project, and the user's settings);
// the project's own files cannot approve it; an answer saved is one
// Claude Code reads, and the rest of ~/.claude.json stays as it was.
func TestProjectServersWaitForApproval(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	fakeHome(t, home)
	user := filepath.Join(home, ".claude.json")
	writeJSON(t, user, map[string]any{
		"numStartups": 7,
		"mcpServers":  map[string]any{"gh": map[string]any{"command": "gh-mcp"}},
		"projects": map[string]any{project: map[string]any{
			"enabledMcpjsonServers":  []string{"a"},
			"disabledMcpjsonServers": []string{"b"},
			"history":                []string{"kept"},
			"disabledMcpServers":     []string{"gh"},
		}},
	})
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	writeJSON(t, filepath.Join(home, ".claude", "settings.json"), map[string]any{"enabledMcpjsonServers": []string{"c"}})
	// The repository says it approves itself: no effect.
	os.MkdirAll(filepath.Join(project, ".claude"), 0o700)
	writeJSON(t, filepath.Join(project, ".claude", "settings.json"), map[string]any{"enableAllProjectMcpServers": true})
	writeJSON(t, filepath.Join(project, ".claude", "settings.local.json"), map[string]any{"enableAllProjectMcpServers": true})
	servers := map[string]any{}
	for _, n := range []string{"a", "b", "c", "d"} {
		servers[n] = map[string]any{"command": "srv-" + n}
	}
	writeJSON(t, filepath.Join(project, ".mcp.json"), map[string]any{"mcpServers": servers})

	states := func() map[string]string {
		files, err := ClaudeCodeFiles(project)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := LoadConfigFiles(files, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, s := range cfg.Servers {
			got[s.Name] = s.Scope + " " + s.Approval
			if s.Disabled {
				got[s.Name] += " disabled"
			}
		}
		return got
	}
	// gh, a user-scope server, is turned off in this project (/mcp disable).
	want := map[string]string{"gh": "user  disabled", "a": "project approved", "b": "project rejected", "c": "project approved", "d": "project pending"}
	if diff := cmp.Diff(want, states()); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}

	if err := SaveApproval(context.Background(), user, project, "d", true); err != nil {
		t.Fatal(err)
	}
	if err := SaveApproval(context.Background(), user, project, "a", false); err != nil {
		t.Fatal(err)
	}
	want["d"], want["a"] = "project approved", "project rejected"
	if diff := cmp.Diff(want, states()); diff != "" {
		t.Errorf("after saving (-want +got):\n%s", diff)
	}
	var doc struct {
		NumStartups int
		Projects    map[string]map[string][]string
	}
	data, _ := os.ReadFile(user)
	if err := json.Unmarshal(data, &doc); err != nil || doc.NumStartups != 7 || !cmp.Equal(doc.Projects[project]["history"], []string{"kept"}) {
		t.Errorf("the rest of ~/.claude.json changed: %s", data)
	}
	if st, _ := os.Stat(user); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, string(data))
}
