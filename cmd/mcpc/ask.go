package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// asker answers elicitation by asking the person at the terminal, field
// by field: a field's type, default and choices are shown; an empty line
// takes the default; a required field without one is asked again, never
// sent missing. Typing "decline" or "cancel" at any prompt does that.
type asker struct {
	mu  sync.Mutex // one form at a time
	in  *bufio.Reader
	out io.Writer
}

func newAsker(in io.Reader, out io.Writer) *asker {
	return &asker{in: bufio.NewReader(in), out: out}
}

func (a *asker) elicit(ctx context.Context, p *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if p.Mode == "url" {
		return &mcpclient.ElicitResult{Action: "decline"}, nil // pages go to visits.elicit
	}
	fields, err := formFields(p.RequestedSchema)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(a.out, "\nThe server asks: %s\n(an empty answer takes the default; type decline or cancel to refuse)\n", clean(p.Message))
	content := map[string]any{}
	for _, f := range fields {
		for {
			fmt.Fprint(a.out, f.prompt())
			line, err := a.in.ReadString('\n')
			if err != nil && line == "" {
				return &mcpclient.ElicitResult{Action: "cancel"}, nil // no more input
			}
			line = strings.TrimSpace(line)
			switch line {
			case "decline", "cancel":
				return &mcpclient.ElicitResult{Action: line}, nil
			}
			v, ok, problem := f.value(line)
			if problem != "" {
				fmt.Fprintf(a.out, "  %s\n", problem)
				continue
			}
			if ok {
				content[f.name] = v
			}
			break
		}
	}
	return &mcpclient.ElicitResult{Action: "accept", Content: content}, nil
}
