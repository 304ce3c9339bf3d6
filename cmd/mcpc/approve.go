package main

import (
	"bufio"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
)

// approve settles the servers of the project's .mcp.json that the user
// has not approved yet, as Claude Code does before it starts one: at a
// terminal, mcpc asks once per server and keeps the answer where Claude
// Code does (~/.claude.json); with --trust-project it starts them this
// once; otherwise they stay unstarted, with a warning that says how to
// start them. A server rejected, now or before, is never started.
func (c *cli) approve(conf *toolreg.Config, cfg *config) *toolreg.Config {
	out := &toolreg.Config{}
	var in *bufio.Reader
	for _, sc := range conf.Servers {
		if sc.Approval == mcpjson.Pending {
			switch {
			case cfg.trust:
				sc = withApproval(sc, mcpjson.Approved)
			case c.interactive:
				if in == nil {
					in = bufio.NewReader(c.stdin)
				}
				sc = c.ask(in, sc)
			case c.stderr != nil && (cfg.server == "" || cfg.server == sc.Name):
				fmt.Fprintf(c.stderr, "mcpc: warning: server %q of %s is not approved, and not started: run mcpc at a terminal to answer, or pass --trust-project\n",
					sc.Name, sc.Source)
			}
		}
		out.Servers = append(out.Servers, sc)
	}
	return out
}

// ask asks at the terminal whether to start sc, and keeps the answer.
func (c *cli) ask(in *bufio.Reader, sc *toolreg.ServerConfig) *toolreg.ServerConfig {
	fmt.Fprintf(c.stderr, "The project's %s configures the MCP server %s\n  %s\n", sc.Source, clean(sc.Name), clean(sc.String()))
	// What String leaves out and the user must weigh: the variables whose
	// values go where the file says (a header of the server's own, say),
	// and a command run on this machine for an http server.
	if vars := sc.Variables(); len(vars) > 0 {
		fmt.Fprintf(c.stderr, "  It reads the environment variables %s, and sends their values where its config says.\n", clean(strings.Join(vars, ", ")))
	}
	if !sc.HeadersHelper.IsZero() {
		fmt.Fprintf(c.stderr, "  It runs a command of the file's at each connection (headersHelper).\n")
	}
	fmt.Fprint(c.stderr, "Start it, now and from now on in this project? [y/N] ")
	line, _ := in.ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	approved := answer == "y" || answer == "yes"
	state := mcpjson.Rejected
	if approved {
		state = mcpjson.Approved
	}
	if user := mcpjson.ClaudeCodeUserFile(); user != "" {
		if err := mcpjson.SaveApproval(user, c.projectDir(), sc.Name, approved); err != nil {
			fmt.Fprintf(c.stderr, "mcpc: warning: the answer is not kept: %s\n", oneLine(err.Error()))
		}
	}
	return withApproval(sc, state)
}

// projectDir is the absolute path of the project directory, as
// mcpjson.ClaudeCodeFiles makes it.
func (c *cli) projectDir() string {
	dir := c.dir
	if dir == "" {
		dir = "."
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// withApproval is a copy of sc in the approval state given: a config is
// not modified once loaded.
func withApproval(sc *toolreg.ServerConfig, state string) *toolreg.ServerConfig {
	c := *sc
	c.Approval = state
	return &c
}
