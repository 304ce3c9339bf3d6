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
func Check(schema json.RawMessage) error {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	if n := len(s.Properties); n > MaxFields {
		return fmt.Errorf("%w: %d fields, more than %d", ErrTooLarge, n, MaxFields)
	}
	for name, raw := range s.Properties {
		if n := choices(raw); n > MaxChoices {
			return fmt.Errorf("%w: the field %q has %d choices, more than %d", ErrTooLarge, clip(name), n, MaxChoices)
		}
	}
	return nil
}

// choiceLists are where a field's schema lists choices.
type choiceLists struct {
	Enum  []json.RawMessage `json:"enum"`
	OneOf []json.RawMessage `json:"oneOf"`
	AnyOf []json.RawMessage `json:"anyOf"`
}

func (c choiceLists) count() int { return len(c.Enum) + len(c.OneOf) + len(c.AnyOf) }

// choices counts the choices a field's schema lists, or its array's
// items (one level down only, as MCP's forms nest no deeper: the rest is
// never read, so a deep nest costs one pass).
func choices(raw json.RawMessage) int {
	var f struct {
		choiceLists
		Items json.RawMessage `json:"items"`
	}
	if json.Unmarshal(raw, &f) != nil {
		return 0
	}
	var items choiceLists
	if len(f.Items) > 0 {
		json.Unmarshal(f.Items, &items)
	}
	return max(f.count(), items.count())
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
