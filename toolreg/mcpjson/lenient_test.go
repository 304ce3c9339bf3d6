package mcpjson

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// One bad entry, or one unset variable, leaves that entry out, reported
// with its file, server and key; every other server loads, from the same
// file and from the others.
func TestLoadConfigLeavesOutOnlyTheBadEntries(t *testing.T) {
	dir := t.TempDir()
	user, project := filepath.Join(dir, "user.json"), filepath.Join(dir, ".mcp.json")
	write(t, user, `{"mcpServers": {
		"shadowed": {"command": "old-server"},
		"kept": {"command": "kept-server"}
	}}`)
	write(t, project, `{"mcpServers": {
		"good": {"command": "good-server"},
		"unset": {"command": "srv", "args": ["--token", "${NOT_SET_ANYWHERE}"]},
		"shadowed": {"command": "srv", "timeout": "soon"},
		"twice": {"command": "a"},
		"twice": {"command": "b"},
		"also-good": {"type": "http", "url": "https://example.com/mcp"}
	}}`)
	cfg, err := LoadConfig([]string{user, filepath.Join(dir, "missing.json"), project}, &ConfigOptions{Env: configEnv})
	if cfg == nil {
		t.Fatal("no config")
	}
	var names []string
	for _, s := range cfg.Servers {
		names = append(names, s.Name)
	}
	// The bad "shadowed" of the later file hides the earlier one: the
	// entry the user wrote last is the one that counts.
	if diff := cmp.Diff([]string{"kept", "good", "also-good"}, names); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	if !errors.Is(err, ErrConfig) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want the config errors and the missing file", err)
	}
	var got []string
	for _, ce := range ConfigErrors(err) {
		got = append(got, ce.Source+"|"+ce.Server+"|"+ce.Key)
		if !strings.Contains(ce.Error(), ce.Source) || !strings.Contains(ce.Error(), `"`+ce.Server+`"`) {
			t.Errorf("%q does not name its file and server", ce.Error())
		}
	}
	want := []string{project + "|unset|args[1]", project + "|shadowed|timeout", project + "|twice|"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	checkNoSecrets(t, "error", err.Error())
}

// A file whose content is not JSON is reported, and the other files load.
func TestLoadConfigSurvivesABrokenFile(t *testing.T) {
	dir := t.TempDir()
	broken, good := filepath.Join(dir, "broken.json"), filepath.Join(dir, "good.json")
	write(t, broken, `{"mcpServers": {"a": {"command": "x",}}}`)
	write(t, good, `{"mcpServers": {"b": {"command": "y"}}}`)
	cfg, err := LoadConfig([]string{broken, good}, nil)
	if len(cfg.Servers) != 1 || cfg.Servers[0].Name != "b" {
		t.Errorf("servers: %v", cfg.Servers)
	}
	ces := ConfigErrors(err)
	if len(ces) != 1 || ces[0].Source != broken || ces[0].Server != "" || !strings.Contains(ces[0].Error(), "line 1") {
		t.Errorf("errors: %v", err)
	}
}
