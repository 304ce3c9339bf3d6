// Package formbound bounds the forms a server may put to a person
// (elicitation's requested schema), for both of mcpc's places to answer
// them: the terminal, which asks one question per field, and mcpc web's
// page. A form over a bound is declined, with a word to the person, never
// asked in part: a hostile server could otherwise send 100,000 fields, or
// a field of a million choices, all within one message.
package formbound

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The bounds. MCP's forms are flat objects of a few fields; a person
// answers them one by one.
const (
	MaxFields  = 64  // fields in a form
	MaxChoices = 200 // choices of one field (enum, oneOf, anyOf, an array's items)
)

// ErrTooLarge is wrapped by the error of a form over a bound.
var ErrTooLarge = errors.New("the form is larger than mcpc puts to a person")

// Check reports, wrapping ErrTooLarge, a form with more than MaxFields
// fields or a field with more than MaxChoices choices. A schema it
// cannot read is not its to report (nil): the form's reader says what is
// wrong with it.
//
// It counts what any reader of the form could see: Go's decoder (the
// terminal's) matches "Properties" to properties and merges the two,
// mcpc web's script reads only "properties", and reads it even when a
// spelling beside it is no object (which fails Go's decoder whole).
func Check(schema json.RawMessage) error {
	var top map[string]json.RawMessage
	if json.Unmarshal(schema, &top) != nil {
		return nil
	}
	type field struct {
		name string
		raw  json.RawMessage
	}
	var fields []field // each spelling's: the choices are counted in each
	names := map[string]bool{}
	for k, v := range top {
		var props map[string]json.RawMessage
		if !strings.EqualFold(k, "properties") || json.Unmarshal(v, &props) != nil {
			continue
		}
		for name, raw := range props {
			names[name] = true
			fields = append(fields, field{name, raw})
		}
	}
	if n := len(names); n > MaxFields {
		return fmt.Errorf("%w: %d fields, more than %d", ErrTooLarge, n, MaxFields)
	}
	for _, f := range fields {
		if n := choices(f.raw); n > MaxChoices {
			return fmt.Errorf("%w: the field %q has %d choices, more than %d", ErrTooLarge, clip(f.name), n, MaxChoices)
		}
	}
	return nil
}

// choices counts the choices a field's schema lists, or its array's
// items (one level down only, as MCP's forms nest no deeper: the rest is
// never read, so a deep nest costs one pass).
//
// It counts what any reader of the form could see: each list on its own
// (a oneOf that is no list does not hide the enum beside it, which
// mcpc web's page shows all the same), and under every spelling of its
// name (Go's decoder matches "ENUM" to enum, the page's script only
// "enum": with both in a field, each reader takes a different one).
func choices(raw json.RawMessage) int {
	n, items := lists(raw)
	for _, it := range items {
		m, _ := lists(it) // the items' own items are never read
		n = max(n, m)
	}
	return n
}

// lists counts the choices a schema object lists itself, and returns
// its items, under each spelling.
func lists(raw json.RawMessage) (n int, items []json.RawMessage) {
	var f map[string]json.RawMessage
	if json.Unmarshal(raw, &f) != nil {
		return 0, nil
	}
	for k, v := range f {
		switch {
		case strings.EqualFold(k, "enum"), strings.EqualFold(k, "oneOf"), strings.EqualFold(k, "anyOf"):
			n += listLen(v)
		case strings.EqualFold(k, "items"):
			items = append(items, v)
		}
	}
	return n, items
}

// listLen is the length of a JSON array, or 0 for anything else.
func listLen(raw json.RawMessage) int {
	var l []json.RawMessage
	if json.Unmarshal(raw, &l) != nil {
		return 0
	}
	return len(l)
}

// clip cuts a field's name for an error, at a byte count (the printer
// of the error cleans what it shows).
func clip(s string) string {
	const n = 64
	if len(s) <= n {
		return s
	}
	for i := n; i > 0; i-- {
		if s[i]&0xC0 != 0x80 {
			return s[:i] + "…"
		}
	}
	return "…"
}
