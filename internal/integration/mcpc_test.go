package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// buildMCPC builds the mcpc command into a temporary directory. The
// integration tests are the one place that builds at test time: they run
// the CLI as a user would, against real servers.
func buildMCPC(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "mcpc")
	build := exec.Command("go", "build", "-o", bin, "./cmd/mcpc")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building mcpc: %v\n%s", err, out)
	}
	return bin
}

// cli runs one mcpc command with the workspace's variables in its
// environment, for the config's ${VAR} references, in dir ("" is ours).
type cli struct {
	bin string
	env []string
	dir string
}

type cliRun struct {
	stdout, stderr string
	code           int
}

func (c *cli) run(t *testing.T, stdin string, args ...string) cliRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Env, cmd.Dir = c.env, c.dir
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := cliRun{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("mcpc %s: %v", strings.Join(args, " "), err)
	}
	return r
}

// want runs mcpc and checks its exit code, reporting what it printed if
// the code is not the one expected.
func (c *cli) want(t *testing.T, code int, stdin string, args ...string) cliRun {
	t.Helper()
	r := c.run(t, stdin, args...)
	if r.code != code {
		t.Errorf("mcpc %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, code, r.stdout, r.stderr)
	}
	return r
}

// decode parses a JSON output, reporting it in full when it does not parse.
func decode(t *testing.T, r cliRun, v any) bool {
	t.Helper()
	if err := json.Unmarshal([]byte(r.stdout), v); err != nil {
		t.Errorf("output is not the JSON expected: %v\n%s", err, r.stdout)
		return false
	}
	return true
}

// TestIntegrationMCPC runs the mcpc CLI against a config file naming the
// same three npm servers as TestIntegrationRegistry.
func TestIntegrationMCPC(t *testing.T) {
	w := newWorkspace(t)
	config := w.writeConfig(t, ".mcp.json", registryConfig)
	c := &cli{bin: buildMCPC(t), env: os.Environ()}
	for k, v := range w.env {
		c.env = append(c.env, k+"="+v)
	}
	notes := filepath.Join(w.root, "notes.txt")

	t.Run("servers", func(t *testing.T) {
		var servers []struct {
			Name, State, Transport, ProtocolVersion, Title, Error string
			Tools                                                 int
		}
		if !decode(t, c.want(t, 0, "", "--config", config, "servers", "--json"), &servers) {
			return
		}
		var names []string
		for _, s := range servers {
			names = append(names, s.Name)
			if s.State != "connected" || s.Transport != "stdio" || s.ProtocolVersion != "2025-11-25" || s.Tools == 0 || s.Error != "" {
				t.Errorf("%s: %+v", s.Name, s)
			}
		}
		if !slices.Equal(names, []string{"everything", "fs", "memory"}) {
			t.Errorf("servers %v", names)
		}
	})

	t.Run("tools", func(t *testing.T) {
		var tools []struct {
			Name, Server, Tool, Description string
			InputSchema                     json.RawMessage
		}
		if !decode(t, c.want(t, 0, "", "--config", config, "tools", "--json"), &tools) {
			return
		}
		found := map[string]bool{}
		for _, tool := range tools {
			found[tool.Name] = true
			if tool.Name != "mcp__"+tool.Server+"__"+tool.Tool || !bytes.HasPrefix(bytes.TrimSpace(tool.InputSchema), []byte("{")) {
				t.Errorf("%s: server %q, tool %q, schema %s", tool.Name, tool.Server, tool.Tool, tool.InputSchema)
			}
		}
		for _, want := range []string{"mcp__everything__echo", "mcp__fs__read_text_file", "mcp__memory__read_graph"} {
			if !found[want] {
				t.Errorf("%s missing from %d tools", want, len(tools))
			}
		}
		// --server narrows the listing to one server.
		var fsOnly []struct{ Server string }
		if decode(t, c.want(t, 0, "", "--config", config, "--server", "fs", "tools", "--json"), &fsOnly) {
			for _, tool := range fsOnly {
				if tool.Server != "fs" {
					t.Errorf("--server fs lists a tool of %q", tool.Server)
				}
			}
		}
	})

	t.Run("call", func(t *testing.T) {
		r := c.want(t, 0, "", "--config", config, "call", "mcp__fs__read_text_file", `{"path": "`+notes+`"}`)
		if !strings.Contains(r.stdout, "plainmcp notes") {
			t.Errorf("read_text_file printed %q", r.stdout)
		}
		// Arguments from a file, then the result as JSON.
		argsFile := filepath.Join(w.dir, "entities.json")
		entities := `{"entities": [{"name": "mcpc", "entityType": "cli", "observations": ["runs MCP tools"]}]}`
		if err := os.WriteFile(argsFile, []byte(entities), 0o644); err != nil {
			t.Fatal(err)
		}
		c.want(t, 0, "", "--config", config, "call", "mcp__memory__create_entities", "@"+argsFile)
		var res struct {
			Content           []struct{ Type, Text string }
			StructuredContent struct{ Entities []struct{ Name string } }
			IsError           bool
		}
		if decode(t, c.want(t, 0, "", "--config", config, "call", "mcp__memory__read_graph", "--json"), &res) {
			if len(res.Content) == 0 || res.Content[0].Type != "text" || res.IsError ||
				len(res.StructuredContent.Entities) != 1 || res.StructuredContent.Entities[0].Name != "mcpc" {
				t.Errorf("read_graph: %+v", res)
			}
		}
		// Arguments on stdin; a tool error exits 5 and is still printed.
		r = c.want(t, 5, `{"path": "`+w.outside+`"}`, "--config", config, "call", "mcp__fs__read_text_file", "-", "--json")
		var failed struct{ IsError bool }
		if decode(t, r, &failed) && !failed.IsError {
			t.Errorf("reading outside the root: %s", r.stdout)
		}
		c.want(t, 1, "", "--config", config, "call", "mcp__fs__no_such_tool", "{}")

		// An image is data in --json and a one-line summary otherwise.
		var image struct {
			Content []struct{ Type, MimeType, Data string }
		}
		if decode(t, c.want(t, 0, "", "--config", config, "call", "mcp__everything__get-tiny-image", "--json"), &image) {
			i := slices.IndexFunc(image.Content, func(c struct{ Type, MimeType, Data string }) bool { return c.Type == "image" })
			if i < 0 || image.Content[i].MimeType != "image/png" || len(image.Content[i].Data) < 100 {
				t.Fatalf("get-tiny-image --json: %+v", image)
			}
			r := c.want(t, 0, "", "--config", config, "call", "mcp__everything__get-tiny-image")
			if !strings.Contains(r.stdout, "image/png") || strings.Contains(r.stdout, image.Content[i].Data[:40]) {
				t.Errorf("get-tiny-image printed %q", r.stdout)
			}
		}
	})

	t.Run("resources", func(t *testing.T) {
		r := c.want(t, 0, "", "--config", config, "read", "memory:memory://knowledge-graph")
		if !strings.Contains(r.stdout, `"entities"`) {
			t.Errorf("read memory:memory://knowledge-graph printed %q", r.stdout)
		}
		r = c.want(t, 0, "", "--config", config, "resources")
		if !strings.Contains(r.stdout, "memory://knowledge-graph") || !strings.Contains(r.stdout, "demo://resource/static/document/") {
			t.Errorf("resources printed %q", r.stdout)
		}
		r = c.want(t, 0, "", "--config", config, "read", "everything:demo://resource/static/document/features.md")
		if strings.TrimSpace(r.stdout) == "" {
			t.Error("read everything:… printed nothing")
		}
	})

	t.Run("prompts and ping", func(t *testing.T) {
		r := c.want(t, 0, "", "--config", config, "prompts")
		if !strings.Contains(r.stdout, "simple-prompt") {
			t.Errorf("prompts printed %q", r.stdout)
		}
		c.want(t, 0, "", "--config", config, "--server", "everything", "ping")
	})

	t.Run("usage", func(t *testing.T) {
		c.want(t, 2, "", "--config", config, "call")
		c.want(t, 2, "", "--config", config, "no-such-command")
	})
}
