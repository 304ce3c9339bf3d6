package toolreg

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/leakcheck"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
)

// envDumpEnv makes the demo server write its environment, one variable a
// line, to the file it names before serving; init runs before TestMain, so
// the server of main_test.go does so in the child.
const envDumpEnv = "PLAINMCP_TOOLREG_ENVDUMP"

func init() {
	if f := os.Getenv(envDumpEnv); f != "" && os.Getenv(demoEnv) != "" {
		if err := os.WriteFile(f, []byte(strings.Join(os.Environ(), "\n")), 0o600); err != nil {
			os.Exit(1)
		}
	}
}

// The registry starts a stdio server with our whole environment under its
// env, unless its entry or the options ask for the safe set.
func TestInheritEnvReachesTheServer(t *testing.T) {
	leakcheck.Check(t)
	t.Setenv("PLAINMCP_TEST_INHERITED", "from-the-parent")
	for _, tc := range []struct {
		name      string
		entry     string // more keys of the server's entry
		safeOpt   bool
		inherited bool
	}{
		{"default", ``, false, true},
		{"inheritEnv false", `, "inheritEnv": false`, false, false},
		{"option", ``, true, false},
		{"inheritEnv true beats the option", `, "inheritEnv": true`, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dump := filepath.Join(t.TempDir(), "env")
			exe, _ := json.Marshal(os.Args[0])
			env, _ := json.Marshal(map[string]string{demoEnv: "1", "GORACE": "atexit_sleep_ms=0", envDumpEnv: dump})
			doc := fmt.Sprintf(`{"mcpServers": {"envdump": {"command": %s, "env": %s%s}}}`, exe, env, tc.entry)
			cfg, err := mcpjson.ParseConfig([]byte(doc), ".mcp.json", &mcpjson.ConfigOptions{SafeEnv: tc.safeOpt})
			if err != nil {
				t.Fatal(err)
			}
			r, err := New(ctx10(t), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if st := r.Servers()[0]; st.State != StateConnected {
				t.Fatalf("server %s: %v", st.State, st.Err)
			}
			data, err := os.ReadFile(dump)
			if err != nil {
				t.Fatal(err)
			}
			vars := strings.Split(string(data), "\n")
			if got := slices.Contains(vars, "PLAINMCP_TEST_INHERITED=from-the-parent"); got != tc.inherited {
				t.Errorf("the server has our variable: %v, want %v", got, tc.inherited)
			}
			if !slices.Contains(vars, envDumpEnv+"="+dump) {
				t.Errorf("the server lacks its env entry")
			}
			if path, ok := os.LookupEnv("PATH"); ok && !slices.Contains(vars, "PATH="+path) {
				t.Errorf("the server lacks PATH, which even the safe set has")
			}
		})
	}
}
