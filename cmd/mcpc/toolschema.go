package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// Bounds of a described schema: how deep nested arguments are followed,
// and how many are shown in all. A server's schema may be any size.
const (
	maxSchemaDepth = 8
	maxSchemaArgs  = 500
)

// argSchema is what a person is told of one argument's JSON Schema.
type argSchema struct {
	Type        any             `json:"type"` // a name or a list of names
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Default     json.RawMessage `json:"default"`
	Const       json.RawMessage `json:"const"`
	Format      string          `json:"format"`
	Pattern     string          `json:"pattern"`
	Ref         string          `json:"$ref"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	MinLength   *int            `json:"minLength"`
	MaxLength   *int            `json:"maxLength"`
	MinItems    *int            `json:"minItems"`
	MaxItems    *int            `json:"maxItems"`
	Properties  json.RawMessage `json:"properties"`
	Required    []string        `json:"required"`
	Items       json.RawMessage `json:"items"`
	choiceSchema
}

// schemaWriter writes the arguments of a schema, one a line, nested ones
// indented under theirs.
type schemaWriter struct {
	w     io.Writer
	shown int
}

// describeSchema writes the properties of schema (an object's) under
// indent, in the order the server wrote them, and returns how many.
func describeSchema(w io.Writer, schema json.RawMessage, indent string) int {
	sw := &schemaWriter{w: w}
	var s argSchema
	if json.Unmarshal(schema, &s) != nil {
		return 0
	}
	sw.properties(s, indent, 0)
	if sw.shown > maxSchemaArgs {
		fmt.Fprintf(w, "%s… and more (mcpc tool --json shows them all)\n", indent)
	}
	return sw.shown
}

func (sw *schemaWriter) properties(s argSchema, indent string, depth int) {
	rpcwire.Members(s.Properties, func(key []byte, start, end int) bool {
		var name string
		json.Unmarshal(key, &name)
		sw.shown++
		if sw.shown > maxSchemaArgs {
			return false
		}
		var p argSchema
		json.Unmarshal(s.Properties[start:end], &p)
		sw.argument(name, p, slices.Contains(s.Required, name), indent, depth)
		return true
	})
}

func (sw *schemaWriter) argument(name string, p argSchema, required bool, indent string, depth int) {
	line := indent + clean(name)
	if p.Title != "" {
		line += " (" + clean(p.Title) + ")"
	}
	facts := []string{p.typeName()}
	if required {
		facts = append(facts, "required")
	} else {
		facts = append(facts, "optional")
	}
	facts = append(facts, p.facts()...)
	fmt.Fprintln(sw.w, line+": "+strings.Join(facts, ", "))
	if p.Description != "" {
		writeIndented(sw.w, indent+"    ", p.Description)
	}
	if depth >= maxSchemaDepth {
		return
	}
	var items argSchema
	if len(p.Items) > 0 && json.Unmarshal(p.Items, &items) == nil && len(items.Properties) > 0 {
		fmt.Fprintln(sw.w, indent+"    each item:")
		sw.properties(items, indent+"      ", depth+1)
	}
	if len(p.Properties) > 0 {
		sw.properties(p, indent+"    ", depth+1)
	}
}

// typeName is "string", "integer or null", "array of string", or the
// $ref it names.
func (p argSchema) typeName() string {
	name := typeNames(p.Type)
	if name == "" && p.Ref != "" {
		return "see " + clean(p.Ref)
	}
	if name == "" {
		name = "any"
	}
	var items argSchema
	if strings.HasPrefix(name, "array") && json.Unmarshal(p.Items, &items) == nil {
		if of := typeNames(items.Type); of != "" {
			name += " of " + of
		}
	}
	return name
}

func typeNames(t any) string {
	switch t := t.(type) {
	case string:
		return clean(t)
	case []any:
		var names []string
		for _, n := range t {
			if s, ok := n.(string); ok {
				names = append(names, clean(s))
			}
		}
		return strings.Join(names, " or ")
	}
	return ""
}

// facts are an argument's default, choices, format and bounds.
func (p argSchema) facts() []string {
	var out []string
	if len(p.Default) > 0 {
		out = append(out, "default "+clip(clean(string(p.Default)), 80))
	}
	if len(p.Const) > 0 {
		out = append(out, "always "+clip(clean(string(p.Const)), 80))
	}
	choices := p.list()
	var items argSchema
	if len(choices) == 0 && json.Unmarshal(p.Items, &items) == nil {
		choices = items.list()
	}
	if len(choices) > 0 {
		out = append(out, "one of "+clip(choiceNames(choices), 300))
	}
	if p.Format != "" {
		out = append(out, "format "+clean(p.Format))
	}
	if p.Pattern != "" {
		out = append(out, "pattern "+clip(clean(p.Pattern), 80))
	}
	return append(out, p.bounds()...)
}

func (p argSchema) bounds() []string {
	var out []string
	for _, b := range []struct {
		what string
		n    *float64
	}{{"at least %g", p.Minimum}, {"at most %g", p.Maximum}} {
		if b.n != nil {
			out = append(out, fmt.Sprintf(b.what, *b.n))
		}
	}
	for _, b := range []struct {
		what string
		n    *int
	}{{"at least %d characters", p.MinLength}, {"at most %d characters", p.MaxLength}, {"at least %d items", p.MinItems}, {"at most %d items", p.MaxItems}} {
		if b.n != nil {
			out = append(out, fmt.Sprintf(b.what, *b.n))
		}
	}
	return out
}

func choiceNames(choices []choice) string {
	names := make([]string, len(choices))
	for i, c := range choices {
		names[i] = c.show()
	}
	return strings.Join(names, ", ")
}
