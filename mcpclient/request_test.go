package mcpclient

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAppendParams(t *testing.T) {
	meta := []byte(`"io.modelcontextprotocol/protocolVersion":"2026-07-28"`)
	for _, tc := range []struct {
		name     string
		params   any
		known    bool
		meta     []byte
		progress int64
		inputs   string
		state    string
		want     string
	}{
		{name: "none, nothing added", want: `{}`},
		{name: "plain object", params: json.RawMessage(`{"a":1}`), want: `{"a":1}`},
		{name: "progress into a new _meta", params: map[string]int{"a": 1}, known: true, progress: 7,
			want: `{"_meta":{"progressToken":"7"},"a":1}`},
		{name: "session meta and progress", params: json.RawMessage(` { "a" : 1 } `), meta: meta, progress: 3,
			want: `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":"3"}, "a" : 1 }`},
		{name: "empty params get meta", params: json.RawMessage(`{ }`), meta: meta,
			want: `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`},
		{name: "the caller's _meta keeps its members, ours after", params: json.RawMessage(`{"name":"x","_meta":{"k":"v"},"z":[1]}`), meta: meta,
			want: `{"name":"x","_meta":{"k":"v","io.modelcontextprotocol/protocolVersion":"2026-07-28"},"z":[1]}`},
		{name: "an empty _meta of the caller's", params: json.RawMessage(`{"_meta":{ }}`), progress: 1,
			want: `{"_meta":{ "progressToken":"1"}}`},
		{name: "a null _meta of the caller's becomes ours", params: json.RawMessage(`{"a":1,"_meta": null ,"b":2}`), progress: 1,
			want: `{"a":1,"_meta": {"progressToken":"1"} ,"b":2}`},
		{name: "an input round", params: json.RawMessage(`{"name":"t"}`), meta: meta, inputs: `{"a":{"x":1}}`, state: `"s<&>"`,
			want: `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"t","inputResponses":{"a":{"x":1}},"requestState":"s<&>"}`},
		{name: "an input round on empty params", inputs: `{}`,
			want: `{"inputResponses":{}}`},
		{name: "the caller's own requestState goes out untouched", params: json.RawMessage(`{"requestState":"mine","inputResponses":{"k":1}}`), meta: meta,
			want: `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"requestState":"mine","inputResponses":{"k":1}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := newRequest("m", tc.params, tc.known)
			if err != nil {
				t.Fatal(err)
			}
			defer r.release()
			r.progress = tc.progress
			if tc.inputs != "" {
				r.inputs = json.RawMessage(tc.inputs)
			}
			if tc.state != "" {
				r.state = json.RawMessage(tc.state)
			}
			got := string(r.appendParams([]byte("prefix:"), tc.meta))
			if diff := cmp.Diff("prefix:"+tc.want, got); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewRequestRefusesWhatIsNoObject(t *testing.T) {
	for _, params := range []any{[]int{1}, "text", json.RawMessage(`[1]`), json.RawMessage(`{"a":`), map[string]any{"_meta": 3}} {
		if _, err := newRequest("m", params, false); err == nil {
			t.Errorf("params %v accepted", params)
		}
	}
}

// FuzzAppendParams checks that whatever object the caller gives, the
// params sent are one valid JSON object that keeps every member of the
// caller's and carries ours.
func FuzzAppendParams(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"_meta":{"k":"v"}}`, ` {"_meta" : { } , "x":[{}]} `, `{"_meta":null,"b":"\u00e9"}`} {
		f.Add(s, int64(7), true)
	}
	f.Fuzz(func(t *testing.T, params string, progress int64, round bool) {
		var caller map[string]json.RawMessage
		if json.Unmarshal([]byte(params), &caller) != nil {
			return
		}
		r, err := newRequest("m", json.RawMessage(params), false)
		if err != nil {
			if m, ok := caller["_meta"]; ok && strings.TrimSpace(string(m)) != "null" && !strings.HasPrefix(strings.TrimSpace(string(m)), "{") {
				return // a _meta that is no object is refused
			}
			t.Fatalf("newRequest(%s): %v", params, err)
		}
		r.progress = progress
		if round {
			r.inputs, r.state = json.RawMessage(`{"k":{}}`), json.RawMessage(`"s"`)
		}
		out := r.appendParams(nil, []byte(`"mine":true`))
		var got map[string]json.RawMessage
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("params %s became invalid JSON %s: %v", params, out, err)
		}
		for k := range caller {
			if _, ok := got[k]; !ok {
				t.Errorf("member %q lost: %s → %s", k, params, out)
			}
		}
		var meta map[string]json.RawMessage
		if err := json.Unmarshal(got["_meta"], &meta); err != nil || string(meta["mine"]) != "true" {
			t.Errorf("our _meta lost: %s → %s", params, out)
		}
	})
}
