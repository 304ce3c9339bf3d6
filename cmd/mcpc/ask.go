package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// A form field of an elicitation's requested schema: MCP allows flat
// objects of strings, numbers, integers, booleans and enums.
type formField struct {
	name        string
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Default     any      `json:"default"`
	Enum        []string `json:"enum"`
	required    bool
}

// formFields reads a requested schema's fields, required ones first, each
// group in name order (a JSON object has no order of its own).
func formFields(schema json.RawMessage) ([]formField, error) {
	var s struct {
		Properties map[string]formField `json:"properties"`
		Required   []string             `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("reading the requested schema: %w", err)
	}
	fields := make([]formField, 0, len(s.Properties))
	for name, f := range s.Properties {
		f.name, f.required = name, slices.Contains(s.Required, name)
		fields = append(fields, f)
	}
	slices.SortFunc(fields, func(a, b formField) int {
		if a.required != b.required {
			if a.required {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	return fields, nil
}

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

// prompt is the line that asks for the field.
func (f formField) prompt() string {
	// Every part is the server's text, cleaned, so that the prompt stays
	// one line: a line break could print a line that reads as mcpc's.
	var b strings.Builder
	b.WriteString("  " + clean(f.name))
	if f.Title != "" {
		b.WriteString(" (" + clean(f.Title) + ")")
	}
	kind := clean(f.Type)
	if len(f.Enum) > 0 {
		kind = "one of " + f.choices()
	}
	b.WriteString(" [" + kind)
	if f.Default != nil {
		b.WriteString(", default " + clean(fmt.Sprint(f.Default)))
	} else if f.required {
		b.WriteString(", required")
	}
	b.WriteString("]")
	if f.Description != "" {
		b.WriteString(" " + clean(f.Description))
	}
	b.WriteString(": ")
	return b.String()
}

// choices are the field's enum, as a prompt shows them.
func (f formField) choices() string { return clean(strings.Join(f.Enum, ", ")) }

// value reads an answer: the value to send and whether to send one, or
// what is wrong with it.
func (f formField) value(line string) (any, bool, string) {
	if line == "" {
		switch {
		case f.Default != nil:
			return f.Default, true, ""
		case f.required:
			return nil, false, "this field is required and has no default"
		}
		return nil, false, ""
	}
	if len(f.Enum) > 0 && !slices.Contains(f.Enum, line) {
		return nil, false, "choose one of: " + f.choices()
	}
	switch f.Type {
	case "integer":
		n, err := strconv.ParseInt(line, 10, 64)
		if err != nil {
			return nil, false, "an integer, please"
		}
		return n, true, ""
	case "number":
		n, err := strconv.ParseFloat(line, 64)
		if err != nil {
			return nil, false, "a number, please"
		}
		return n, true, ""
	case "boolean":
		switch strings.ToLower(line) {
		case "y", "yes", "true":
			return true, true, ""
		case "n", "no", "false":
			return false, true, ""
		}
		return nil, false, "yes or no, please"
	}
	return line, true, ""
}
