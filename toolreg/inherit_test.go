package toolreg

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/childexit"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
)

// envDumpEnv makes the demo server write its environment, one variable a
// line, to the file it names before serving; init runs before TestMain, so
// the server of main_test.go does so in the child.
const envDumpEnv = "PLAINMCP_TOOLREG_ENVDUMP"

func init() {
	if f := os.Getenv(envDumpEnv); f != "" && os.Getenv(demoEnv) != "" {
		if err := os.WriteFile(f, []byte(strings.Join(os.Environ(), "\n")), 0o600); err != nil {
			childexit.Exit(1)
		}
	}
}

// The registry starts a stdio server with our whole environment under its
// env, unless its entry asks for the safe set. Each server is a real
// process, so there are two, one each way, started together by one New:
// which entries and options make SafeEnv is package mcpjson's to test
// (TestParseConfigInheritEnv).
func TestInheritEnvReachesTheServer(t *testing.T) {
	leakcheck.Check(t)
	t.Setenv("PLAINMCP_TEST_INHERITED", "from-the-parent")
	dir := t.TempDir()
	exe, _ := json.Marshal(os.Args[0])
	entry := func(name, more string) string {
		env, _ := json.Marshal(map[string]string{demoEnv: "1", "GORACE": "atexit_sleep_ms=0", envDumpEnv: filepath.Join(dir, name)})
		return fmt.Sprintf(`%q: {"command": %s, "env": %s%s}`, name, exe, env, more)
	}
	doc := `{"mcpServers": {` + entry("inherits", ``) + `, ` + entry("safe", `, "inheritEnv": false`) + `}}`
	cfg, err := mcpjson.ParseConfig([]byte(doc), ".mcp.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(ctx10(t), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, st := range r.Servers() {
		if st.State != StateConnected {
			t.Fatalf("server %s %s: %v", st.Name, st.State, st.Err)
		}
		dump := filepath.Join(dir, st.Name)
		data, err := os.ReadFile(dump)
		if err != nil {
			t.Fatal(err)
		}
		vars := strings.Split(string(data), "\n")
		if got, want := slices.Contains(vars, "PLAINMCP_TEST_INHERITED=from-the-parent"), st.Name == "inherits"; got != want {
			t.Errorf("server %s has our variable: %v, want %v", st.Name, got, want)
		}
		if !slices.Contains(vars, envDumpEnv+"="+dump) {
			t.Errorf("server %s lacks its env entry", st.Name)
		}
		if path, ok := os.LookupEnv("PATH"); ok && !slices.Contains(vars, "PATH="+path) {
			t.Errorf("server %s lacks PATH, which even the safe set has", st.Name)
		}
	}
	if n := len(r.Servers()); n != 2 {
		t.Errorf("%d servers, want 2", n)
	}
}
