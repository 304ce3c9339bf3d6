package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/cmd/mcpc/internal/formbound"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// manyFields is a requested schema of n string fields.
func manyFields(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"f%d":{"type":"string"}`, i)
	}
	b.WriteString(`}}`)
	return json.RawMessage(b.String())
}

// A form of more fields or choices than a person is asked is declined
// without a question, and the person is told which server sent it; a
// form at the bounds is asked.
func TestFormOverTheBoundsIsDeclinedUnasked(t *testing.T) {
	choices := func(n int) string {
		return `[` + strings.TrimSuffix(strings.Repeat(`"x",`, n), ",") + `]`
	}
	for _, tc := range []struct {
		name   string
		schema json.RawMessage
		over   bool
	}{
		{"100,000 fields", manyFields(100_000), true},
		{"one field too many", manyFields(formbound.MaxFields + 1), true},
		{"as many fields as asked", manyFields(formbound.MaxFields), false},
		{"enum", json.RawMessage(`{"properties":{"f":{"type":"string","enum":` + choices(formbound.MaxChoices+1) + `}}}`), true},
		{"oneOf", json.RawMessage(`{"properties":{"f":{"type":"string","oneOf":` + strings.ReplaceAll(choices(formbound.MaxChoices+1), `"x"`, `{"const":"x"}`) + `}}}`), true},
		{"an array's items", json.RawMessage(`{"properties":{"f":{"type":"array","items":{"enum":` + choices(formbound.MaxChoices+1) + `}}}}`), true},
		{"as many choices as shown", json.RawMessage(`{"properties":{"f":{"type":"string","enum":` + choices(formbound.MaxChoices) + `}}}`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			a := newAsker(strings.NewReader(""), &out) // no answers: an asked form is cancelled
			ctx := withFormServer(context.Background(), "hostile")
			res, err := a.elicit(ctx, &mcpclient.ElicitParams{Message: "Fill this in", RequestedSchema: tc.schema})
			if err != nil {
				t.Fatal(err)
			}
			if !tc.over {
				if res.Action != "cancel" || !strings.Contains(out.String(), "Fill this in") {
					t.Errorf("a form within the bounds was not asked: %+v\n%s", res, out.String())
				}
				return
			}
			if res.Action != "decline" {
				t.Errorf("action %q, want decline", res.Action)
			}
			if !strings.Contains(out.String(), `Server "hostile"`) || strings.Contains(out.String(), "Fill this in") {
				t.Errorf("the person is not told, or is asked:\n%.500s", out.String())
			}
			if res, err := acceptDefaults(ctx, &mcpclient.ElicitParams{RequestedSchema: tc.schema}); err != nil || res.Action != "decline" {
				t.Errorf("--elicitation defaults: %+v, %v", res, err)
			}
		})
	}
}

// Every text of the server's a form's prompt shows is cut: however long
// the server made the message, a field's name, title, description,
// default, format and choices, the prompt stays a few thousand
// characters.
func TestFormTextIsBounded(t *testing.T) {
	long := strings.Repeat("word ", 200_000)
	many := make([]string, formbound.MaxChoices)
	for i := range many {
		many[i] = fmt.Sprint(i, long[:10_000])
	}
	field := map[string]any{"type": "string", "title": long, "description": long, "default": long, "format": long}
	schema, _ := json.Marshal(map[string]any{"properties": map[string]any{
		"n" + long[:50_000]: field,
		"pick":              map[string]any{"type": "string", "enum": many, "title": "Pick"},
		"list":              map[string]any{"type": "array", "items": map[string]any{"type": long[:10_000]}},
	}})
	var out strings.Builder
	a := newAsker(strings.NewReader("nonsense\n"), &out) // a wrong choice: the choices are said again
	if _, err := a.elicit(context.Background(), &mcpclient.ElicitParams{Message: long, RequestedSchema: schema}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > 3000 {
			t.Errorf("a line of %d characters: %.200q…", n, line)
		}
	}
}

// A pattern longer than mcpc compiles is left to the server: the answer
// is taken, not checked against it.
func TestLongPatternIsNotCompiled(t *testing.T) {
	f := formField{Pattern: "^(" + strings.Repeat("a|", maxPattern) + "a)$"}
	if reason := f.checkString("b"); reason != "" {
		t.Errorf("checked against a pattern of %d bytes: %q", len(f.Pattern), reason)
	}
}
