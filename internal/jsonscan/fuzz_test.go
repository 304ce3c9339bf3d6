package jsonscan

import (
	"encoding/json"
	"testing"
)

// FuzzAgreesWithEncodingJSON holds the scanner to the standard library: the
// same inputs are valid, a valid string unquotes to what json.Unmarshal
// gives, and a valid object's members, walked strictly or flat, are the
// ones json.Unmarshal finds.
func FuzzAgreesWithEncodingJSON(f *testing.F) {
	for _, seed := range []string{`{"a":1,"b":[true,null]}`, `"a\u00e9\n"`, `[1,2,{"x":-0.5e3}]`, `{"a":{}}x`, `01`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		ok := valid(in)
		if ok != json.Valid(in) {
			t.Fatalf("%q: scanner valid=%v, encoding/json disagrees", in, ok)
		}
		if !ok {
			return
		}
		i := SkipSpace(in, 0)
		switch in[i] {
		case '"':
			var want string
			json.Unmarshal(in, &want)
			if got, err := Unquote(trimRight(in[i:])); err != nil || got != want {
				t.Fatalf("%q: Unquote = %q, %v; encoding/json %q", in, got, err, want)
			}
		case '{':
			checkMembers(t, in)
		}
	})
}

func trimRight(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func checkMembers(t *testing.T, obj []byte) {
	var want map[string]json.RawMessage
	if err := json.Unmarshal(obj, &want); err != nil {
		t.Fatalf("%q: encoding/json: %v", obj, err)
	}
	strict := map[string]string{}
	if _, err := EachMember(obj, SkipSpace(obj, 0), 1, func(key, value []byte) error {
		k, err := Unquote(key)
		strict[k] = string(value)
		return err
	}); err != nil {
		t.Fatalf("%q: EachMember: %v", obj, err)
	}
	flat := map[string]string{}
	if !EachFlatMember(trimRight(obj), func(key, value []byte) bool {
		k, _ := Unquote(key)
		flat[k] = string(value)
		return true
	}) {
		t.Fatalf("%q: the flat walk did not take a valid object", obj)
	}
	if len(strict) != len(want) || len(flat) != len(want) {
		t.Fatalf("%q: %d members strict, %d flat, encoding/json %d", obj, len(strict), len(flat), len(want))
	}
	for k, v := range strict {
		if flat[k] != v || string(want[k]) != v {
			t.Fatalf("%q: member %q: strict %q, flat %q, encoding/json %q", obj, k, v, flat[k], want[k])
		}
	}
}
