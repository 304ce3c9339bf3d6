package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/mcpjson"
)

// approve settles the servers of the project's .mcp.json that the user
// has not approved, as Claude Code does before it starts one:
//
//   - with --trust-project, each starts this once, whatever was answered
//     before: the flag typed now wins over a stored refusal, and nothing
//     is stored;
//   - at a terminal, mcpc asks about each one not answered yet, showing
//     exactly what would run (ServerConfig.Disclosure), and keeps only an
//     explicit answer where Claude Code does (~/.claude.json); Enter or
//     the end of input means "not now" and keeps nothing;
//   - otherwise they stay unstarted, with a warning that says how to
//     start them. A refused server is not started; reset-project-choices
//     forgets the refusal.
func (c *cli) approve(ctx context.Context, conf *toolreg.Config, cfg *config) *toolreg.Config {
	out := &toolreg.Config{}
	var in *bufio.Reader
	for _, sc := range conf.Servers {
		switch {
		case sc.Approval != mcpjson.Pending && sc.Approval != mcpjson.Rejected:
		case cfg.trust:
			if c.stderr != nil && (cfg.server == "" || cfg.server == sc.Name) {
				fmt.Fprintf(c.stderr, "mcpc: warning: --trust-project starts the project's server %s, not approved, this once:\n  %s\n", clean(sc.Name), indented(sc))
			}
			sc = withApproval(sc, mcpjson.Approved)
		case sc.Approval == mcpjson.Rejected:
		case c.interactive:
			if in == nil {
				in = bufio.NewReader(c.stdin)
			}
			sc = c.ask(ctx, in, sc)
		case c.stderr != nil && (cfg.server == "" || cfg.server == sc.Name):
			fmt.Fprintf(c.stderr, "mcpc: warning: server %q of %s is not approved, and not started: run mcpc at a terminal to answer, or pass --trust-project\n",
				sc.Name, sc.Source)
		}
		out.Servers = append(out.Servers, sc)
	}
	return out
}

// approvalQuestion is the question and its answers.
const approvalQuestion = `Start it?
  y      yes, now and from now on in this project
  o      only this once
  Enter  not now (mcpc asks again next time)
  never  no, and do not ask again in this project (mcpc reset-project-choices forgets it)
[y/o/never/N] `

// ask asks at the terminal whether to start sc, and keeps an explicit
// answer.
func (c *cli) ask(ctx context.Context, in *bufio.Reader, sc *toolreg.ServerConfig) *toolreg.ServerConfig {
	risk := "Starting it runs this command on this machine, as you."
	if sc.Transport() != "stdio" {
		risk = "Starting it connects to this server and sends it what its config says."
	}
	fmt.Fprintf(c.stderr, "The project's %s configures the MCP server %s. %s\n  %s\n",
		sc.Source, clean(sc.Name), risk, indented(sc))
	fmt.Fprint(c.stderr, approvalQuestion)
	line, err := in.ReadString('\n')
	if err == io.EOF {
		fmt.Fprintln(c.stderr) // the prompt's line ends here, not in what follows
	}
	keep := func(approved bool) {
		user := mcpjson.ClaudeCodeUserFile()
		if user == "" {
			fmt.Fprintf(c.stderr, "mcpc: warning: the answer is not kept: no home directory\n")
			return
		}
		if err := mcpjson.SaveApproval(ctx, user, c.projectDir(), sc.Name, approved); err != nil {
			fmt.Fprintf(c.stderr, "mcpc: warning: the answer is not kept: %s\n", oneLine(err.Error()))
		}
	}
	switch answer := strings.ToLower(strings.TrimSpace(line)); answer {
	case "y", "yes":
		keep(true)
		return withApproval(sc, mcpjson.Approved)
	case "o", "once":
		return withApproval(sc, mcpjson.Approved)
	case "never":
		keep(false)
		fmt.Fprintf(c.stderr, "mcpc: %s is not started, now or later in this project; mcpc reset-project-choices forgets the answer, --trust-project starts it once\n", clean(sc.Name))
		return withApproval(sc, mcpjson.Rejected)
	case "", "n", "no":
		fmt.Fprintf(c.stderr, "mcpc: %s is not started; mcpc asks again next time (or pass --trust-project to start it once)\n", clean(sc.Name))
	default:
		fmt.Fprintf(c.stderr, "mcpc: %q is not one of the answers: %s is not started; mcpc asks again next time\n", answer, clean(sc.Name))
	}
	return sc
}

// indented is sc's Disclosure, its lines after the first indented as the
// first is by the caller.
func indented(sc *toolreg.ServerConfig) string {
	return strings.ReplaceAll(sc.Disclosure(), "\n", "\n  ")
}

// resetProjectChoices forgets the answers kept for the project's
// .mcp.json servers, as Claude Code's "claude mcp reset-project-choices"
// does: each is asked about again.
func (c *cli) resetProjectChoices(ctx context.Context) error {
	user := mcpjson.ClaudeCodeUserFile()
	if user == "" {
		return fmt.Errorf("reset-project-choices: no home directory, so no ~/.claude.json")
	}
	dir := c.projectDir()
	before, err := mcpjson.ReadApprovals(user, "", dir)
	if err != nil {
		return err
	}
	if err := mcpjson.ResetApprovals(ctx, user, dir); err != nil {
		return fmt.Errorf("reset-project-choices: %w", err)
	}
	fmt.Fprintf(c.stdout, "Forgot the answers for the .mcp.json servers of %s in %s", dir, user)
	if n := len(before.Enabled) + len(before.Disabled); n > 0 || before.All {
		fmt.Fprintf(c.stdout, " (approved: %s; refused: %s)", orNone(before.Enabled, before.All), orNone(before.Disabled, false))
	}
	fmt.Fprintln(c.stdout, ": mcpc asks about each again.")
	return nil
}

// orNone lists names for a message, "every server" when all is set.
func orNone(names []string, all bool) string {
	switch {
	case all:
		return "every server"
	case len(names) == 0:
		return "none"
	}
	return strings.Join(names, ", ")
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
