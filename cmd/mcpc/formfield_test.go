package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// A form of every kind MCP allows, with choices titled each way.
const everyKindOfField = `{"type":"object","required":["level","tags"],"properties":{
	"level":{"type":"string","title":"Level","oneOf":[{"const":"lo","title":"Low"},{"const":"hi","title":"High"}]},
	"tags":{"type":"array","title":"Tags","maxItems":2,"items":{"type":"string","enum":["a","b","c"]}},
	"code":{"type":"string","minLength":3,"maxLength":3,"pattern":"^[A-Z]+$"},
	"count":{"type":"integer","minimum":1,"maximum":5},
	"email":{"type":"string","format":"email"},
	"legacy":{"type":"string","enum":["x","y"],"enumNames":["Ex","Why"]},
	"picks":{"type":"array","items":{"anyOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"}]},"default":["r"]},
	"when":{"type":"string","format":"date"},
	"nums":{"type":"array","items":{"type":"integer"},"maxItems":3},
	"words":{"type":"array","items":{"type":"string"}},
	"extra":{"type":"object"}}}`

// TestFormHoldsToTheSchema answers a form as a person at a terminal
// would, wrong answers first: each is asked again with the reason and
// never sent; a title is sent as its const, "a, b" as a list.
func TestFormHoldsToTheSchema(t *testing.T) {
	answers := []string{
		"nonsense", "High", // level
		"a, d", "a, b, c", "a, b", // tags
		"ab", "abc", "ABC", // code
		"2.5", "9", "3", // count
		"nope", "ada@example.com", // email
		"",                         // extra, left out
		"why",                      // legacy
		"",                         // nums, left out
		"Red, g, red",              // picks
		"2026-13-01", "2026-12-07", // when
		"", // words, left out
	}
	var out strings.Builder
	a := newAsker(strings.NewReader(strings.Join(answers, "\n")+"\n"), &out)
	res, err := a.elicit(context.Background(), &mcpclient.ElicitParams{Message: "Tell me", RequestedSchema: json.RawMessage(everyKindOfField)})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.Content)
	want := `{"code":"ABC","count":3,"email":"ada@example.com","legacy":"y","level":"hi","picks":["r","g"],"tags":["a","b"],"when":"2026-12-07"}`
	if res.Action != "accept" || string(got) != want {
		t.Errorf("sent %s %s\nwant accept %s\nthe terminal read:\n%s", res.Action, got, want, out.String())
	}
	for _, s := range []string{
		"level (Level) [one of Low (lo), High (hi), required]",
		"tags (Tags) [any of a, b, c, separated by commas, required]",
		"[one of Ex (x), Why (y)]",
		"[any of Red (r), Green (g), separated by commas, default r]",
		"[integer, at least 1, at most 5]",
		"choose one of: Low (lo), High (hi)",
		`"d" is not a choice`, "choose at most 2",
		"at least 3 characters", "does not match the pattern",
		"an integer, please", "at most 5, please",
		"not a valid email", "not a valid date",
	} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("the terminal lacks %q:\n%s", s, out.String())
		}
	}
}

// Each kind of field refuses what its schema does not allow, and takes
// what it does.
func TestFieldValues(t *testing.T) {
	fields, err := formFields(json.RawMessage(everyKindOfField))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]formField{}
	for _, f := range fields {
		byName[f.name] = f
	}
	for _, tc := range []struct {
		field, answer string
		want          string // the value sent, as JSON; "" for a refusal
	}{
		{"level", "lo", `"lo"`}, {"level", "low", `"lo"`}, {"level", "Lo", ""}, {"level", "", ""},
		{"tags", "c", `["c"]`}, {"tags", "c, c", `["c"]`}, {"tags", "a,,b", `["a","b"]`}, {"tags", "[\"a\"]", ""},
		{"picks", "", `["r"]`}, {"picks", "blue", ""},
		{"count", "1", `1`}, {"count", "0", ""}, {"count", "1e400", ""}, {"count", "NaN", ""},
		{"email", "a@b.c", `"a@b.c"`}, {"email", "Ada <a@b.c>", ""},
		{"when", "2026-02-29", ""}, {"when", "2028-02-29", `"2028-02-29"`},
		{"code", "ÄÖÜ", ""}, {"code", "ABCD", ""},
		{"nums", "1, 2", `[1,2]`}, {"nums", "1, x", ""}, {"nums", "1,2,3,4", ""},
		{"words", "a, b c", `["a","b c"]`}, {"words", "solo", `["solo"]`},
		{"extra", `{"k": 1}`, `{"k":1}`}, {"extra", "k=1", ""}, {"extra", "[1]", ""},
	} {
		v, ok, problem := byName[tc.field].value(tc.answer)
		got := ""
		if ok {
			b, _ := json.Marshal(v)
			got = string(b)
		}
		if got != tc.want || (tc.want == "" && tc.answer != "" && problem == "") {
			t.Errorf("%s %q: sent %s (problem %q), want %s", tc.field, tc.answer, got, problem, tc.want)
		}
	}
}

// TestPatternRefusalIsClipped: a wrong answer's reason quotes the
// server's pattern cut short, not a line as long as the server made it.
func TestPatternRefusalIsClipped(t *testing.T) {
	f := formField{Pattern: "^a" + strings.Repeat("b", maxPattern-10) + "$"}
	reason := f.checkString("c")
	if reason == "" {
		t.Fatal("an answer that does not match the pattern was taken")
	}
	if len(reason) > 200 {
		t.Errorf("the reason is %d bytes: %.120q…", len(reason), reason)
	}
}
