package mcpjson

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// claudeJSON is a ~/.claude.json as Claude Code writes it: keys in its
// own order (not sorted), two-space indent, characters encoding/json
// would escape, and the project's key for /src/app.
const claudeJSON = `{
  "numStartups": 7,
  "theme": "dark",
  "tipsHistory": {
    "new-user-warmup": 3
  },
  "projects": {
    "/src/other": {
      "allowedTools": [],
      "history": [
        "a <b> & c"
      ]
    },
    "/src/app": {
      "history": [],
      "mcpContextUris": [],
      "enabledMcpjsonServers": [
        "a"
      ],
      "disabledMcpjsonServers": [],
      "hasTrustDialogAccepted": true
    }
  },
  "userID": "0123"
}`

// Saving an answer changes the file only where the answer goes: every
// other key keeps its place and its bytes, and no list becomes null.
func TestSaveApprovalChangesOnlyTheAnswer(t *testing.T) {
	for _, tc := range []struct {
		name     string
		approved bool
		want     string
	}{
		{"d", true, strings.Replace(claudeJSON, `"a"
      ],`, `"a",
        "d"
      ],`, 1)},
		{"a", false, strings.Replace(strings.Replace(claudeJSON, `"enabledMcpjsonServers": [
        "a"
      ],`, `"enabledMcpjsonServers": [],`, 1), `"disabledMcpjsonServers": [],`, `"disabledMcpjsonServers": [
        "a"
      ],`, 1)},
	} {
		for _, newline := range []string{"", "\n"} {
			path := filepath.Join(t.TempDir(), ".claude.json")
			write(t, path, claudeJSON+newline)
			if err := SaveApproval(context.Background(), path, "/src/app", tc.name, tc.approved); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			if diff := cmp.Diff(tc.want+newline, string(data)); diff != "" {
				t.Errorf("SaveApproval(%q, %v) (-want +got):\n%s", tc.name, tc.approved, diff)
			}
		}
	}
}

// A project with no answers yet gets the one given and an empty other
// list, never null; a missing file is made, mode 0600.
func TestSaveApprovalWritesNoNull(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude.json")
	if err := SaveApproval(context.Background(), path, "/src/new", "x", false); err != nil {
		t.Fatal(err)
	}
	if err := SaveApproval(context.Background(), path, "/src/new2", "y", true); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "null") || !strings.Contains(string(data), `"enabledMcpjsonServers": []`) {
		t.Errorf("file:\n%s", data)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	a, err := ReadApprovals(path, "", "/src/new")
	if err != nil || a.State("x") != Rejected {
		t.Errorf("ReadApprovals: %+v, %v", a, err)
	}
}

// ResetApprovals forgets the project's answers, and nothing else: the
// other project's keys, the file's order and indent stay; a file with no
// such project, or none at all, is not written.
func TestResetApprovals(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	doc := strings.Replace(claudeJSON, `"hasTrustDialogAccepted": true`, `"hasTrustDialogAccepted": true,
      "enableAllProjectMcpServers": true`, 1)
	write(t, path, doc)
	if err := ResetApprovals(context.Background(), path, "/src/app"); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(strings.Replace(doc, `"enabledMcpjsonServers": [
        "a"
      ],`, `"enabledMcpjsonServers": [],`, 1), `"enableAllProjectMcpServers": true`, `"enableAllProjectMcpServers": false`, 1)
	data, _ := os.ReadFile(path)
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("ResetApprovals (-want +got):\n%s", diff)
	}
	a, _ := ReadApprovals(path, "", "/src/app")
	if a.State("a") != Pending {
		t.Errorf("a is %s after the reset", a.State("a"))
	}

	st, _ := os.Stat(path)
	if err := ResetApprovals(context.Background(), path, "/src/none"); err != nil {
		t.Fatal(err)
	}
	if st2, _ := os.Stat(path); !os.SameFile(st, st2) {
		t.Error("a file with no such project was rewritten")
	}
	missing := filepath.Join(t.TempDir(), ".claude.json")
	if err := ResetApprovals(context.Background(), missing, "/src/app"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a missing file was made")
	}
}

// A ~/.claude.json that is a symbolic link stays one: the answer is
// written to the file it points to, in that file's mode.
func TestSaveApprovalWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "claude.json")
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, target, claudeJSON)
	if err := os.Chmod(target, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, ".claude.json")
	if err := os.Symlink(filepath.Join("dotfiles", "claude.json"), link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := SaveApproval(context.Background(), link, "/src/app", "d", true); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symbolic link (%v)", link, err)
	}
	a, err := ReadApprovals(target, "", "/src/app")
	if err != nil || a.State("d") != Approved {
		t.Errorf("the link's target: ReadApprovals: %+v, %v", a, err)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o640 {
		t.Errorf("the target's mode %v, want 0640", st.Mode().Perm())
	}
}
