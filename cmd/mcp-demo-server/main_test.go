package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/childexit"
)

// TestMain runs the command itself when the test binary is re-executed by
// a test, so the tests need no build step.
func TestMain(m *testing.M) {
	if os.Getenv("MCP_DEMO_SERVER_RUN_MAIN") == "1" {
		main()
		childexit.Exit(0)
	}
	os.Exit(m.Run())
}

// run starts the command with args, writes input to its standard input,
// closes it and returns what it wrote to standard output and error.
func run(t *testing.T, input string, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MCP_DEMO_SERVER_RUN_MAIN=1")
	if os.Getenv("GORACE") == "" {
		// A race-enabled binary otherwise sleeps a second before exiting.
		cmd.Env = append(cmd.Env, "GORACE=atexit_sleep_ms=0")
	}
	cmd.Stdin = strings.NewReader(input)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcp-demo-server %v: %v; stderr:\n%s", args, err, errOut.String())
	}
	return out.String(), errOut.String()
}

const session = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`

func TestStdioSession(t *testing.T) {
	for _, tc := range []struct {
		name      string
		args      []string
		tools     int
		wantLog   bool
		hasCursor bool
	}{
		{"defaults", nil, 13, false, false},
		{"flags", []string{"-page-size", "20", "-extra-tools", "100", "-log"}, 20, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr := run(t, session, tc.args...)
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if len(lines) != 2 {
				t.Fatalf("stdout has %d lines, want 2 responses:\n%s", len(lines), stdout)
			}
			byID := map[int]json.RawMessage{}
			for _, line := range lines {
				var resp struct {
					ID     int
					Result json.RawMessage
				}
				if err := json.Unmarshal([]byte(line), &resp); err != nil || resp.Result == nil {
					t.Fatalf("stdout line is not a response: %q (%v)", line, err)
				}
				byID[resp.ID] = resp.Result
			}
			var list struct {
				Tools      []struct{ Name string }
				NextCursor string
			}
			json.Unmarshal(byID[2], &list)
			if len(list.Tools) != tc.tools || (list.NextCursor != "") != tc.hasCursor {
				t.Errorf("tools/list gave %d tools, cursor %q; want %d", len(list.Tools), list.NextCursor, tc.tools)
			}
			if (stderr != "") != tc.wantLog {
				t.Errorf("stderr = %q", stderr)
			}
		})
	}
}

func TestLargeResult(t *testing.T) {
	const size = 3 << 20
	input := strings.SplitAfter(session, "\n")[0] +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"big","arguments":{"bytes":3145728}}}` + "\n"
	// Standard input ends right after the call; the linger is what lets
	// the answer out, so it is generous for a loaded machine.
	stdout, _ := run(t, input, "-linger", "1m")
	var resp struct {
		Result struct {
			Content []struct{ Text string }
		}
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &resp); err != nil || len(resp.Result.Content) != 1 || len(resp.Result.Content[0].Text) != size {
		t.Fatalf("big result not received whole (%v)", err)
	}
}

// Without -stateless, server/discover is an unknown method (a probing
// client falls back to initialize); with it, the answer offers 2026-07-28
// and the tasks extension, and a request with that era's metadata needs
// no initialize.
func TestStatelessFlag(t *testing.T) {
	const input = `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}
`
	for _, stateless := range []bool{false, true} {
		var args []string
		if stateless {
			args = []string{"-stateless"}
		}
		stdout, _ := run(t, input, args...)
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		if len(lines) != 2 {
			t.Fatalf("-stateless=%v: %d answers:\n%s", stateless, len(lines), stdout)
		}
		if strings.Contains(lines[0], `"id":2`) { // answered in either order
			lines[0], lines[1] = lines[1], lines[0]
		}
		offers := strings.Contains(lines[0], `"supportedVersions":["2026-07-28"]`) && strings.Contains(lines[0], "io.modelcontextprotocol/tasks")
		echoed := strings.Contains(lines[1], `"text":"hi"`)
		if offers != stateless || echoed != stateless {
			t.Errorf("-stateless=%v:\n%s", stateless, stdout)
		}
	}
}
