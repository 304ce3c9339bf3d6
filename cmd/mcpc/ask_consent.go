package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/toolreg"
)

// consent decides the tool calls of ask that need it: bridge.Run sends it
// every call but those of tools marked read-only by a server that
// --trust-annotations names (a server's word on its own tools). A call
// that an --allow pattern names, or any call under --yes, runs, and
// stderr says why; otherwise the person at the terminal is asked; with no
// terminal (a script, a pipe) the call is refused, and the model is told.
type consent struct {
	allow []string
	yes   bool
	ask   *asker    // nil: no one to ask
	out   io.Writer // stderr
}

func (c *consent) approve(ctx context.Context, call toolreg.Call) error {
	what := callLine(call)
	for _, p := range c.allow {
		if allows(p, call) {
			fmt.Fprintf(c.out, "consent: approved by --allow %s: %s\n", clean(p), what)
			return nil
		}
	}
	if c.yes {
		fmt.Fprintf(c.out, "consent: approved by --yes: %s\n", what)
		return nil
	}
	if c.ask != nil {
		return c.ask.consent(ctx, call)
	}
	fmt.Fprintf(c.out, "consent: refused, no terminal to ask (--allow %s or --yes would run it): %s\n", call.Name, what)
	return errors.New("it needs the user's consent, and there was no one to ask")
}

// allows reports whether the --allow pattern p names call: p matches its
// exposed name and, if p spells out a server (mcp__<server>__…), names
// call's. The tools of a server named "fs__x" are mcp__fs__x__…, which
// mcp__fs__* matches too: consent given to fs's tools must not reach
// another server's.
func allows(p string, call toolreg.Call) bool {
	if !(toolreg.ToolFilter{Allow: []string{p}}).Permits(call.Name) {
		return false
	}
	lit, _, _ := strings.Cut(p, "*")
	rest, prefixed := strings.CutPrefix(lit, "mcp__")
	return !prefixed || !strings.Contains(rest, "__") || strings.HasPrefix(p, toolreg.Qualify(call.Server, ""))
}

// callLine is a call in one line: the tool, its server and its arguments
// summarized.
func callLine(call toolreg.Call) string {
	return fmt.Sprintf("%s (tool %q of server %q) %s", call.Name, clean(call.Tool), clean(call.Server), strings.Join(argLines(call.Args), ", "))
}

// maxArgs is how many arguments a consent prompt lists.
const maxArgs = 12

// argLines summarizes a call's arguments, one "name: value" each, in
// name order: a value as compact JSON cut to 120 bytes, a name to 40,
// control characters dropped; past maxArgs, a count of the rest.
func argLines(args any) []string {
	raw, _ := args.(json.RawMessage)
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return []string{clean(cut(string(raw), 120))}
	}
	if len(obj) == 0 {
		return []string{"(no arguments)"}
	}
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	slices.Sort(names)
	var lines []string
	for i, k := range names {
		if i == maxArgs {
			lines = append(lines, fmt.Sprintf("… and %d more", len(names)-maxArgs))
			break
		}
		lines = append(lines, clean(cut(k, 40))+": "+clean(cut(string(obj[k]), 120)))
	}
	return lines
}

// consent asks the person whether a call may run. Only y or yes is yes;
// anything else, the end of input or ctx ending is no.
func (a *asker) consent(ctx context.Context, call toolreg.Call) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprintf(a.out, "\nThe model wants to call %s: tool %q of server %q.\n", call.Name, clean(call.Tool), clean(call.Server))
	for _, l := range argLines(call.Args) {
		fmt.Fprintf(a.out, "    %s\n", l)
	}
	fmt.Fprint(a.out, "Run it? [y/N] ")
	line := make(chan string, 1)
	go func() {
		s, _ := a.in.ReadString('\n')
		line <- s
	}()
	select {
	case <-ctx.Done():
		fmt.Fprintln(a.out)
		return ctx.Err()
	case s := <-line:
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "y", "yes":
			return nil
		}
		return errors.New("the user said no")
	}
}
