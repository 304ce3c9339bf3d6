package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// value reads an answer: the value to send and whether to send one, or
// what is wrong with it. An answer the schema does not allow is never
// sent: the person is told why and asked again.
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
	switch {
	case f.multi:
		return f.pickMany(line)
	case len(f.choices) > 0:
		c, ok := f.pick(line)
		if !ok {
			return nil, false, "choose one of: " + f.choiceList()
		}
		return c, true, ""
	}
	switch f.Type {
	case "integer", "number":
		return f.number(line)
	case "array":
		return f.list(line)
	case "object":
		var v map[string]any
		if json.Unmarshal([]byte(line), &v) != nil {
			return nil, false, `a JSON object, please, as {"key": "value"}`
		}
		return v, true, ""
	case "boolean":
		switch strings.ToLower(line) {
		case "y", "yes", "true":
			return true, true, ""
		case "n", "no", "false":
			return false, true, ""
		}
		return nil, false, "yes or no, please"
	}
	if problem := f.checkString(line); problem != "" {
		return nil, false, problem
	}
	return line, true, ""
}

// pick finds the choice an answer names: its value, else its title (in
// any case), and gives the value.
func (f formField) pick(answer string) (any, bool) {
	for _, c := range f.choices {
		if fmt.Sprint(c.Const) == answer {
			return c.Const, true
		}
	}
	for _, c := range f.choices {
		if c.Title != "" && strings.EqualFold(c.Title, answer) {
			return c.Const, true
		}
	}
	return nil, false
}

// pickMany reads "a, b" as the list of the choices it names, each once.
func (f formField) pickMany(line string) (any, bool, string) {
	picked := []any{}
	seen := map[string]bool{}
	for _, part := range strings.Split(line, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		v, ok := f.pick(part)
		if !ok {
			return nil, false, fmt.Sprintf("%q is not a choice; choose from: %s", clean(part), f.choiceList())
		}
		if key := fmt.Sprint(v); !seen[key] {
			seen[key] = true
			picked = append(picked, v)
		}
	}
	if f.MinItems != nil && len(picked) < *f.MinItems {
		return nil, false, fmt.Sprintf("choose at least %d", *f.MinItems)
	}
	if f.MaxItems != nil && len(picked) > *f.MaxItems {
		return nil, false, fmt.Sprintf("choose at most %d", *f.MaxItems)
	}
	return picked, true, ""
}

// list reads "a, b" as a list of the items' type (strings unless the
// schema says numbers, integers or booleans), each checked as one.
func (f formField) list(line string) (any, bool, string) {
	item := formField{Type: cmp.Or(f.itemType, "string")}
	out := []any{}
	for _, part := range strings.Split(line, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		v, ok, problem := item.value(part)
		if problem != "" {
			return nil, false, fmt.Sprintf("%q: %s", clean(part), problem)
		}
		if ok {
			out = append(out, v)
		}
	}
	if f.MinItems != nil && len(out) < *f.MinItems {
		return nil, false, fmt.Sprintf("give at least %d", *f.MinItems)
	}
	if f.MaxItems != nil && len(out) > *f.MaxItems {
		return nil, false, fmt.Sprintf("give at most %d", *f.MaxItems)
	}
	return out, true, ""
}

func (f formField) number(line string) (any, bool, string) {
	n, err := strconv.ParseFloat(line, 64)
	if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
		return nil, false, "a number, please"
	}
	if f.Type == "integer" && (n != math.Trunc(n) || math.Abs(n) > 1<<53) {
		return nil, false, "an integer, please"
	}
	if f.Minimum != nil && n < *f.Minimum {
		return nil, false, fmt.Sprintf("at least %g, please", *f.Minimum)
	}
	if f.Maximum != nil && n > *f.Maximum {
		return nil, false, fmt.Sprintf("at most %g, please", *f.Maximum)
	}
	if f.Type == "integer" {
		return int64(n), true, ""
	}
	return n, true, ""
}

// checkString holds a text to the field's length, pattern and format.
func (f formField) checkString(s string) string {
	n := utf8.RuneCountInString(s)
	if f.MinLength != nil && n < *f.MinLength {
		return fmt.Sprintf("at least %d characters, please", *f.MinLength)
	}
	if f.MaxLength != nil && n > *f.MaxLength {
		return fmt.Sprintf("at most %d characters, please", *f.MaxLength)
	}
	// A pattern Go cannot compile (JSON Schema's are ECMAScript's), or
	// one over maxPattern, is left unchecked: the server checks what it
	// receives anyway.
	if f.Pattern != "" && len(f.Pattern) <= maxPattern {
		if re, err := regexp.Compile(f.Pattern); err == nil && !re.MatchString(s) {
			return "this does not match the pattern " + shown(f.Pattern, 80)
		}
	}
	if !formatOK(f.Format, s) {
		return "not a valid " + shown(f.Format, maxShownWord)
	}
	return ""
}

// formatOK checks the formats MCP names for a form's text: email, uri,
// date and date-time. Others are not checked.
func formatOK(format, s string) bool {
	switch format {
	case "email":
		a, err := mail.ParseAddress(s)
		return err == nil && a.Address == s
	case "uri":
		u, err := url.Parse(s)
		return err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != "" || u.Path != "")
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		return err == nil
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		return err == nil
	}
	return true
}
