package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/plainmcp/plainmcp/cmd/mcpc/internal/formbound"
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

// maxFormMessage bounds, in characters, the message a form is shown
// with.
const maxFormMessage = 2000

// formServerKey marks the context of a form's request with the name of
// the server that sent it (see withFormServer).
type formServerKey struct{}

// withFormServer is ctx naming server as the sender of the form asked
// under it: the handler is the same for every server, the request's
// context is not.
func withFormServer(ctx context.Context, server string) context.Context {
	return context.WithValue(ctx, formServerKey{}, server)
}

// formServer is the server withFormServer named, or "".
func formServer(ctx context.Context) string {
	s, _ := ctx.Value(formServerKey{}).(string)
	return s
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
	who := "The server"
	if name := formServer(ctx); name != "" {
		who = fmt.Sprintf("Server %q", clean(name))
	}
	fields, err := formFields(p.RequestedSchema)
	if errors.Is(err, formbound.ErrTooLarge) {
		fmt.Fprintf(a.out, "\n%s asks you to fill in a form, declined unasked: %s.\n", who, oneLine(err.Error()))
		return &mcpclient.ElicitResult{Action: "decline"}, nil
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(a.out, "\n%s asks: %s\n(an empty answer takes the default; type decline or cancel to refuse)\n", who, shown(p.Message, maxFormMessage))
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
