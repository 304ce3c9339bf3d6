package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/cmd/mcpc/internal/formbound"
)

// A form field of an elicitation's requested schema. MCP allows a flat
// object of strings (with a format or a length), numbers and integers
// (with bounds), booleans, single choices (enum, enum with enumNames,
// oneOf of const and title) and multiple choices (an array whose items
// are an enum or an anyOf of const and title).
type formField struct {
	name        string
	required    bool
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Default     any      `json:"default"`
	MinLength   *int     `json:"minLength"`
	MaxLength   *int     `json:"maxLength"`
	Pattern     string   `json:"pattern"`
	Format      string   `json:"format"`
	Minimum     *float64 `json:"minimum"`
	Maximum     *float64 `json:"maximum"`
	MinItems    *int     `json:"minItems"`
	MaxItems    *int     `json:"maxItems"`
	choices     []choice // one of these (a string), or some of them (an array)
	multi       bool     // an array of choices
	itemType    string   // an array's items' type, when they are not choices
}

// choice is one value a field may take and the title it is shown by.
type choice struct {
	Const any    `json:"const"`
	Title string `json:"title"`
}

// choiceSchema is where a schema lists its choices: enum (with the
// legacy enumNames as titles), oneOf or anyOf of const and title, and an
// array's items, which list them the same ways.
type choiceSchema struct {
	Enum      []any           `json:"enum"`
	EnumNames []string        `json:"enumNames"`
	OneOf     []choice        `json:"oneOf"`
	AnyOf     []choice        `json:"anyOf"`
	Items     json.RawMessage `json:"items"`
}

func (c choiceSchema) list() []choice {
	var out []choice
	for i, v := range c.Enum {
		ch := choice{Const: v}
		if i < len(c.EnumNames) {
			ch.Title = c.EnumNames[i]
		}
		out = append(out, ch)
	}
	for _, ch := range append(c.OneOf, c.AnyOf...) {
		if ch.Const != nil {
			out = append(out, ch)
		}
	}
	return out
}

// Bounds of the text a form's prompt shows of each thing a server wrote,
// in characters: a field's name, title and description, a value (a
// default, a choice), a type or format word, and a field's whole list of
// choices. The form's fields and choices are counted by formbound.
const (
	maxShownName        = 64
	maxShownTitle       = 120
	maxShownDescription = 400
	maxShownValue       = 120
	maxShownWord        = 40
	maxShownChoices     = 2000
)

// maxPattern bounds the length of a pattern mcpc compiles to check an
// answer: a longer one is left to the server, which checks anyway.
const maxPattern = 1000

// formFields reads a requested schema's fields, required ones first, each
// group in name order (a JSON object has no order of its own).
func formFields(schema json.RawMessage) ([]formField, error) {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("reading the requested schema: %w", err)
	}
	if err := formbound.Check(schema); err != nil {
		return nil, err
	}
	fields := make([]formField, 0, len(s.Properties))
	for name, raw := range s.Properties {
		f, err := readField(raw)
		if err != nil {
			return nil, fmt.Errorf("reading the requested schema's field %q: %w", clip(clean(name), maxShownName), err)
		}
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

func readField(raw json.RawMessage) (formField, error) {
	var f formField
	var cs choiceSchema
	if err := json.Unmarshal(raw, &f); err != nil {
		return f, err
	}
	if err := json.Unmarshal(raw, &cs); err != nil {
		return f, err
	}
	f.choices = cs.list()
	if f.Type == "array" && len(cs.Items) > 0 {
		var items choiceSchema
		if err := json.Unmarshal(cs.Items, &items); err != nil {
			return f, fmt.Errorf("items: %w", err)
		}
		f.choices, f.multi = items.list(), len(items.list()) > 0
		var it struct {
			Type string `json:"type"`
		}
		json.Unmarshal(cs.Items, &it)
		f.itemType = it.Type
	}
	return f, nil
}

// show is how a choice is named to the person: its title and, when that
// differs, the value it stands for.
func (c choice) show() string {
	v := shown(fmt.Sprint(c.Const), maxShownValue)
	if c.Title == "" || c.Title == fmt.Sprint(c.Const) {
		return v
	}
	return shown(c.Title, maxShownValue) + " (" + v + ")"
}

// prompt is the line that asks for the field.
func (f formField) prompt() string {
	// Every part is the server's text, cleaned, so that the prompt stays
	// one line: a line break could print a line that reads as mcpc's.
	var b strings.Builder
	b.WriteString("  " + shown(f.name, maxShownName))
	if f.Title != "" {
		b.WriteString(" (" + shown(f.Title, maxShownTitle) + ")")
	}
	b.WriteString(" [" + f.kind())
	if f.Default != nil {
		b.WriteString(", default " + shown(showValue(f.Default), maxShownValue))
	} else if f.required {
		b.WriteString(", required")
	}
	b.WriteString("]")
	if f.Description != "" {
		b.WriteString(" " + shown(f.Description, maxShownDescription))
	}
	b.WriteString(": ")
	return b.String()
}

// kind says what the field takes: its choices, or its type and bounds.
func (f formField) kind() string {
	switch {
	case f.multi:
		return "any of " + f.choiceList() + ", separated by commas"
	case len(f.choices) > 0:
		return "one of " + f.choiceList()
	case f.Type == "array":
		return "a list of " + shown(cmp.Or(f.itemType, "string"), maxShownWord) + "s, separated by commas"
	}
	parts := []string{shown(f.Type, maxShownWord)}
	if f.Format != "" {
		parts[0] = shown(f.Format, maxShownWord)
	}
	if f.Minimum != nil {
		parts = append(parts, fmt.Sprintf("at least %g", *f.Minimum))
	}
	if f.Maximum != nil {
		parts = append(parts, fmt.Sprintf("at most %g", *f.Maximum))
	}
	if f.MinLength != nil {
		parts = append(parts, fmt.Sprintf("at least %d characters", *f.MinLength))
	}
	if f.MaxLength != nil {
		parts = append(parts, fmt.Sprintf("at most %d characters", *f.MaxLength))
	}
	return strings.Join(parts, ", ")
}

func (f formField) choiceList() string {
	names := make([]string, len(f.choices))
	for i, c := range f.choices {
		names[i] = c.show()
	}
	return clip(strings.Join(names, ", "), maxShownChoices)
}

// shown is a server's text as a prompt shows it: on one line, cut to n
// characters.
func shown(s string, n int) string {
	return clip(clean(s), n)
}

// showValue is a default as a person would type it: a list of choices
// joined by commas, anything else as it prints.
func showValue(v any) string {
	if list, ok := v.([]any); ok {
		parts := make([]string, len(list))
		for i, x := range list {
			parts[i] = fmt.Sprint(x)
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}
