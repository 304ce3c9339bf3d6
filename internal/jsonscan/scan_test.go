package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// valid reports whether b is one JSON value, as the scanner judges it.
func valid(b []byte) bool {
	end, err := SkipValue(b, SkipSpace(b, 0), 0)
	return err == nil && SkipSpace(b, end) == len(b)
}

func TestSkipValueAgreesWithEncodingJSON(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	for _, in := range []string{
		`null`, `true`, `false`, `tru`, `nul`, `0`, `-0`, `01`, `1.`, `1.5e+3`, `1e`, `-`, `.5`,
		`""`, `"a\"b"`, `"\u00e9"`, `"\u00g9"`, `"\x"`, "\"tab\there\"", `"unterminated`,
		`{}`, `{"a":1,"b":[true,null,{"c":"d"}]}`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `{"a":1}}`,
		`[]`, `[1,2`, `[1,,2]`, `[1 2]`, ` [ 1 , 2 ] `, `"é"`, "\"\xff\"", ``, ` `,
		deep, deep[1 : len(deep)-1],
	} {
		if got, want := valid([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("%.40q: scanner says valid=%v, encoding/json %v", in, got, want)
		}
	}
}

func TestEachMemberGivesKeysAndValuesAsWritten(t *testing.T) {
	obj := []byte(`{ "a" : 1 , "b\"" :{"x":[1, 2]}, "c":"d" }`)
	var got []string
	end, err := EachMember(obj, 0, 1, func(key, value []byte) error {
		got = append(got, string(key)+"="+string(value))
		return nil
	})
	want := []string{`"a"=1`, `"b\""={"x":[1, 2]}`, `"c"="d"`}
	if err != nil || end != len(obj) || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %q, end %d, err %v; want %q, end %d", got, end, err, want, len(obj))
	}
	var flat []string
	if !EachFlatMember(obj, func(key, value []byte) bool {
		flat = append(flat, string(key)+"="+string(value))
		return true
	}) || strings.Join(flat, " ") != strings.Join(want, " ") {
		t.Fatalf("flat walk: %q, want %q", flat, want)
	}
}

// TestFlatWalkHasNoDepthLimit: the flat walk still finds the members of an
// object nested deeper than the strict walk allows, and tells a whole
// object from a cut one.
func TestFlatWalkHasNoDepthLimit(t *testing.T) {
	deep := `{"result":` + strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5) + `,"id":7}`
	if valid([]byte(deep)) {
		t.Fatal("the strict walk took a value nested beyond MaxDepth")
	}
	var id string
	if !EachFlatMember([]byte(deep), func(key, value []byte) bool {
		if string(key) == `"id"` {
			id = string(value)
		}
		return true
	}) || id != "7" {
		t.Fatalf("flat walk: whole=false or id %q", id)
	}
	for _, cut := range []string{`{"id":7`, `{"id":[1}`, `{"id":7} x`, `["id",7]`, `{"id":"7}`} {
		if EachFlatMember([]byte(cut), func(_, _ []byte) bool { return true }) {
			t.Errorf("%q: the flat walk called it a whole object", cut)
		}
	}
}

func TestEachElement(t *testing.T) {
	arr := []byte(`[ 1, {"a":[2]} ,"x" ]`)
	var got []string
	EachElement(arr, 0, func(elem []byte) { got = append(got, string(elem)) })
	if strings.Join(got, "|") != `1|{"a":[2]}|"x"` {
		t.Fatalf("elements %q", got)
	}
}

func TestUnquote(t *testing.T) {
	for in, want := range map[string]string{`"plain"`: "plain", `"a\nb"`: "a\nb", `"\u00e9t\u00e9"`: "été", "\"\xff\"": "\ufffd"} {
		if got, err := Unquote([]byte(in)); err != nil || got != want {
			t.Errorf("Unquote(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`"a" `, `"a`, `a`, `"\q"`} {
		if _, err := Unquote([]byte(bad)); err == nil {
			t.Errorf("Unquote(%q) took it", bad)
		}
	}
}
