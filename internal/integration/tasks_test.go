package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/task"
)

// server-everything's simulate-research-query requires task augmentation
// (2025-11-25 tasks: execution.taskSupport "required"): CallTool drives it
// to its report, through the server's four stages, and mcpc call prints
// the report and, with --progress, the task's status.
func TestIntegrationEverythingTask(t *testing.T) {
	h := &hostRecorder{}
	opts := h.options()
	opts.Tasks = &task.Options{}
	entry := os.Getenv("PLAINMCP_EVERYTHING")
	s := startEverythingWith(t, "PLAINMCP_EVERYTHING", opts)
	tools, err := mcpclient.Collect(s.Tools(ctx30s(t)))
	if err != nil {
		t.Fatal(err)
	}
	support := ""
	for _, tool := range tools {
		if tool.Name == "simulate-research-query" {
			support = task.Support(tool)
		}
	}
	if support != "required" {
		t.Fatalf("simulate-research-query has taskSupport %q", support)
	}
	var statuses []string
	ctx := task.WithStatus(ctx30s(t), func(t task.Task) { statuses = append(statuses, t.Status+": "+t.StatusMessage) })
	res, err := s.CallTool(ctx, "simulate-research-query", map[string]any{"topic": "pipes"})
	if err != nil {
		t.Fatalf("CallTool: %v (statuses %q)", err, statuses)
	}
	if res.IsError || !strings.Contains(res.Text(), "Research Report: pipes") {
		t.Errorf("result: %+v", res)
	}
	if len(statuses) < 2 || !strings.HasPrefix(statuses[0], "working") || !strings.HasPrefix(statuses[len(statuses)-1], "completed") {
		t.Errorf("statuses %q", statuses)
	}

	// An ambiguous topic: the task goes input_required and the server's
	// elicitation, tied to the task, reaches the session's handler while
	// tasks/result is pending.
	res, err = s.CallTool(ctx30s(t), "simulate-research-query", map[string]any{"topic": "python", "ambiguous": true})
	if err != nil {
		t.Fatalf("ambiguous: %v", err)
	}
	h.mu.Lock()
	elicited := len(h.elicited)
	h.mu.Unlock()
	if elicited != 1 || !strings.Contains(res.Text(), "**Clarification**: User accepted") {
		t.Errorf("elicited %d times; result %q", elicited, res.Text())
	}

	// Through mcpc, as a user would run it.
	dir := t.TempDir()
	config := filepath.Join(dir, ".mcp.json")
	body := `{"mcpServers": {"everything": {"command": "node", "args": ["` + entry + `", "stdio"]}}}`
	if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	c := &cli{bin: buildMCPC(t), env: os.Environ()}
	r := c.want(t, 0, "", "--config", config, "--progress", "call", "mcp__everything__simulate-research-query", `{"topic": "tasks"}`)
	if !strings.Contains(r.stdout, "Research Report: tasks") {
		t.Errorf("mcpc call printed %q", r.stdout)
	}
	if !strings.Contains(r.stderr, ": working") || !strings.Contains(r.stderr, ": completed") {
		t.Errorf("mcpc call --progress showed %q, want the task's status", r.stderr)
	}
}

// The same over Streamable HTTP: the server's elicitation for the task
// travels on the tasks/result stream.
func TestIntegrationEverythingTaskHTTP(t *testing.T) {
	h := &hostRecorder{}
	opts := h.options()
	opts.Tasks = &task.Options{}
	s := connectHTTPWith(t, serveEverything(t, "streamableHttp")+"/mcp", opts)
	res, err := s.CallTool(ctx30s(t), "simulate-research-query", map[string]any{"topic": "python", "ambiguous": true})
	if err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	elicited := len(h.elicited)
	h.mu.Unlock()
	if elicited != 1 || !strings.Contains(res.Text(), "Research Report: python") {
		t.Errorf("elicited %d times; result %q", elicited, res.Text())
	}
}

// The TypeScript SDK's example server (simpleStreamableHttp) offers a
// delay tool that runs only as a task.
func TestIntegrationSDKExampleDelayTask(t *testing.T) {
	entry := os.Getenv("PLAINMCP_SDK_EXAMPLE")
	if entry == "" {
		t.Skip("PLAINMCP_SDK_EXAMPLE not set: run `make integration`")
	}
	url := serveNode(t, entry, "MCP_PORT")
	opts := (&hostRecorder{}).options()
	opts.Tasks = &task.Options{}
	s := connectHTTPWith(t, url+"/mcp", opts)
	var statuses []string
	ctx := task.WithStatus(ctx30s(t), func(t task.Task) { statuses = append(statuses, t.Status) })
	res, err := s.CallTool(ctx, "delay", map[string]any{"duration": 1500})
	if err != nil || res.Text() != "Completed 1500ms delay" {
		t.Fatalf("%+v %v (statuses %v)", res, err, statuses)
	}
	if len(statuses) < 2 || statuses[len(statuses)-1] != task.Completed {
		t.Errorf("statuses %v", statuses)
	}
	// Without Options.Tasks the server refuses the call (as a tool error,
	// "requires task augmentation"), as the spec says it must.
	plain := connectHTTPWith(t, url+"/mcp", (&hostRecorder{}).options())
	if res, err := plain.CallTool(ctx30s(t), "delay", map[string]any{"duration": 10}); err == nil && !res.IsError {
		t.Errorf("a required-task tool ran without a task: %+v", res)
	}
}
