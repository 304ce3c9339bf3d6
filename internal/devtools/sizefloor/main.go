// Command sizefloor is the size floor for make size, not an API: the
// smallest reasonable MCP client written by hand, doing what examples/stdio
// does with os/exec, bufio and encoding/json alone. It runs a server, sends
// initialize and notifications/initialized, lists every page of tools,
// calls one and prints its text. make size compares the two binaries: what
// the plainmcp packages cost a stdio-only program on top of this floor.
//
// Usage:
//
//	sizefloor [-tool NAME] [-args JSON] -- COMMAND [ARGS...]
//
// It omits what a real client needs (timeouts, cancellation, other
// protocol versions, server requests beyond a refusal, a careful shutdown);
// use package mcpclient for that.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// message is every JSON-RPC message this client reads.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// client is one session: the child's stdin, its stdout and the last id used.
type client struct {
	in  io.Writer
	out *bufio.Reader
	id  int
}

func (c *client) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = c.in.Write(append(b, '\n'))
	return err
}

// call sends a request and decodes its result into result. Lines that are
// not JSON are skipped, notifications ignored, server requests refused.
func (c *client) call(method string, params, result any) error {
	c.id++
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params}); err != nil {
		return err
	}
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("%s: reading: %w", method, err)
		}
		var m message
		if json.Unmarshal(line, &m) != nil || m.ID == nil {
			continue
		}
		if m.Method != "" {
			c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "not supported"}})
			continue
		}
		if string(m.ID) != fmt.Sprint(c.id) {
			continue
		}
		if m.Error != nil {
			return fmt.Errorf("%s: error %d: %s", method, m.Error.Code, m.Error.Message)
		}
		return json.Unmarshal(m.Result, result)
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sizefloor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tool := fs.String("tool", "", "the tool to call (default: the first one listed)")
	argsJSON := fs.String("args", "{}", "the tool's arguments, a JSON object")
	if fs.Parse(args) != nil {
		return 2
	}
	var toolArgs map[string]json.RawMessage
	if json.Unmarshal([]byte(*argsJSON), &toolArgs) != nil || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: sizefloor [-tool NAME] [-args JSON] -- COMMAND [ARGS...]")
		return 2
	}

	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stderr = os.Stderr // the server's log
	in, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintln(stderr, "sizefloor:", err)
		return 1
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(stderr, "sizefloor:", err)
		return 1
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(stderr, "sizefloor:", err)
		return 1
	}
	c := &client{in: in, out: bufio.NewReader(out)}
	text, toolFailed, err := session(c, *tool, toolArgs, stderr)
	in.Close() // end of input: a stdio server exits
	cmd.Wait()
	if err != nil {
		fmt.Fprintln(stderr, "sizefloor:", err)
		return 1
	}
	fmt.Fprintln(stdout, text)
	if toolFailed {
		fmt.Fprintln(stderr, "sizefloor: the tool reported an error")
		return 1
	}
	return 0
}

// session runs the handshake, lists the tools and calls one. It returns
// the tool's text and whether the tool reported an error.
func session(c *client, tool string, args map[string]json.RawMessage, stderr io.Writer) (string, bool, error) {
	var init struct {
		ServerInfo struct{ Name string } `json:"serverInfo"`
	}
	err := c.call("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "sizefloor", "version": "0"},
	}, &init)
	if err != nil {
		return "", false, err
	}
	if err := c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		return "", false, err
	}

	var names []string
	for cursor := ""; ; {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var page struct {
			Tools      []struct{ Name string } `json:"tools"`
			NextCursor string                  `json:"nextCursor"`
		}
		if err := c.call("tools/list", params, &page); err != nil {
			return "", false, err
		}
		for _, t := range page.Tools {
			names = append(names, t.Name)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	fmt.Fprintf(stderr, "%s offers %d tools: %s\n", init.ServerInfo.Name, len(names), strings.Join(names, ", "))
	if tool == "" {
		if len(names) == 0 {
			return "", false, fmt.Errorf("the server offers no tools")
		}
		tool = names[0]
	}

	var res struct {
		Content []struct{ Type, Text string } `json:"content"`
		IsError bool                          `json:"isError"`
	}
	if err := c.call("tools/call", map[string]any{"name": tool, "arguments": args}, &res); err != nil {
		return "", false, err
	}
	var texts []string
	for _, item := range res.Content {
		if item.Type == "text" {
			texts = append(texts, item.Text)
		}
	}
	return strings.Join(texts, "\n"), res.IsError, nil
}
