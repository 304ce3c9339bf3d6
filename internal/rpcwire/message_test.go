package rpcwire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIDRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		raw      string
		isString bool
		valid    bool
	}{
		{`1`, false, true},
		{`-42`, false, true},
		{`9223372036854775807`, false, true},
		{`9223372036854775808`, false, true}, // kept as text
		{`1.5`, false, true},
		{`1e3`, false, true},
		{`"abc"`, true, true},
		{`""`, true, true},
		{`"a\"b"`, true, true},
		{`"ü"`, true, true},
		{`null`, false, false},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			var id ID
			if err := json.Unmarshal([]byte(tc.raw), &id); err != nil {
				t.Fatalf("Unmarshal(%s): %v", tc.raw, err)
			}
			if id.IsString() != tc.isString || id.IsValid() != tc.valid {
				t.Errorf("IsString=%v IsValid=%v, want %v %v", id.IsString(), id.IsValid(), tc.isString, tc.valid)
			}
			got, _ := json.Marshal(id)
			if string(got) != tc.raw {
				t.Errorf("echoed %s, want %s", got, tc.raw)
			}
		})
	}
	for _, bad := range []string{`true`, `{}`, `[1]`, `01`, `"unterminated`} {
		var id ID
		if err := json.Unmarshal([]byte(bad), &id); err == nil {
			t.Errorf("Unmarshal(%s) = %v, want error", bad, id)
		}
	}
	if Int64ID(7) == StringID("7") {
		t.Error("number 7 and string \"7\" compare equal")
	}
}

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame string
		want  *Message
		err   string
	}{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"x"}}`,
			&Message{ID: Int64ID(1), Method: "tools/list", Params: json.RawMessage(`{"cursor":"x"}`)}, ""},
		{"notification", ` {"method":"notifications/initialized","jsonrpc":"2.0"} `,
			&Message{Method: "notifications/initialized"}, ""},
		{"result", `{"jsonrpc":"2.0","id":"a-1","result":{"tools":[]}}`,
			&Message{ID: StringID("a-1"), Result: json.RawMessage(`{"tools":[]}`)}, ""},
		{"null result", `{"jsonrpc":"2.0","id":3,"result":null}`,
			&Message{ID: Int64ID(3), Result: json.RawMessage(`null`)}, ""},
		{"error", `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope","data":{"x":1}}}`,
			&Message{ID: Int64ID(2), Error: &Error{Code: -32601, Message: "nope", Data: json.RawMessage(`{"x":1}`)}}, ""},
		{"escaped key and method", `{"json\u0072pc":"2.0","id":1,"method":"a\/b"}`,
			&Message{ID: Int64ID(1), Method: "a/b"}, ""},
		{"unknown member ignored", `{"jsonrpc":"2.0","id":1,"result":1,"extra":[1,2]}`,
			&Message{ID: Int64ID(1), Result: json.RawMessage(`1`)}, ""},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"result":1}`, nil, `must be "2.0"`},
		{"no version", `{"id":1,"result":1}`, nil, `"jsonrpc" member missing`},
		{"not an object", `"hello"`, nil, "not a JSON object"},
		{"truncated", `{"jsonrpc":"2.0","id":1,"result":{"a":`, nil, "malformed"},
		{"bad literal", `{"jsonrpc":"2.0","id":1,"result":tru}`, nil, "malformed"},
		{"trailing data", `{"jsonrpc":"2.0","id":1,"result":1} x`, nil, "trailing"},
		{"method and result", `{"jsonrpc":"2.0","id":1,"method":"m","result":1}`, nil, "both a method"},
		{"result and error", `{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}`, nil, "both result and error"},
		{"response without id", `{"jsonrpc":"2.0","result":1}`, nil, "no id"},
		{"null request id", `{"jsonrpc":"2.0","id":null,"method":"m"}`, nil, "null"},
		{"bool id", `{"jsonrpc":"2.0","id":true,"result":1}`, nil, "number or a string"},
		{"scalar params", `{"jsonrpc":"2.0","method":"m","params":3}`, nil, "params"},
		{"numeric method", `{"jsonrpc":"2.0","method":3}`, nil, "method is not a string"},
		{"empty", `{}`, nil, "member missing"},
		{"neither", `{"jsonrpc":"2.0","id":1}`, nil, "neither"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decode([]byte(tc.frame))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Decode error = %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(ID{})); diff != "" {
				t.Errorf("Decode mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeBatch(t *testing.T) {
	msgs, errs, err := DecodeBatch([]byte(`[{"jsonrpc":"2.0","id":1,"method":"a"}, {"bad":1} ,{"jsonrpc":"2.0","method":"n"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 3 || errs[0] != nil || errs[1] == nil || errs[2] != nil {
		t.Fatalf("got %d messages, errs %v", len(msgs), errs)
	}
	if msgs[0].Method != "a" || msgs[2].Method != "n" {
		t.Errorf("methods %q %q", msgs[0].Method, msgs[2].Method)
	}
	for _, bad := range []string{`[]`, `[1,`, `{}`} {
		if _, _, err := DecodeBatch([]byte(bad)); err == nil {
			t.Errorf("DecodeBatch(%s): want error", bad)
		}
	}
}

func TestAppendRoundTrip(t *testing.T) {
	frames := [][]byte{
		AppendRequest(nil, Int64ID(9), "tools/call", json.RawMessage(`{"name":"echo"}`)),
		AppendRequest(nil, ID{}, "notifications/progress", nil),
		AppendRequest(nil, StringID("x\n\"y\""), "méthod<&>", nil),
		AppendResult(nil, StringID("s"), json.RawMessage(`[1]`)),
		AppendResult(nil, Int64ID(1), nil),
		AppendError(nil, Int64ID(-1), &Error{Code: CodeInvalidParams, Message: "bad \"x\"", Data: json.RawMessage(`{"d":1}`)}),
		AppendError(nil, ID{}, &Error{Code: CodeParseError, Message: "parse"}),
	}
	for _, f := range frames {
		if !json.Valid(f) {
			t.Errorf("invalid JSON: %s", f)
		}
		var generic map[string]any
		if err := json.Unmarshal(f, &generic); err != nil || generic["jsonrpc"] != "2.0" {
			t.Errorf("frame %s: %v %v", f, err, generic)
		}
	}
	m, err := Decode(frames[2])
	if err != nil || m.Method != "méthod<&>" || m.ID != StringID("x\n\"y\"") {
		t.Errorf("round trip of escaped request: %+v %v", m, err)
	}
	// An error response to an unreadable request carries a null id.
	if m, err := Decode(frames[6]); err != nil || m.ID.IsValid() || m.Error.Code != CodeParseError {
		t.Errorf("error response with null id: %+v, %v", m, err)
	}
}

// FuzzDecode checks the hand-written envelope scanner against
// encoding/json: whatever Decode accepts is valid JSON whose members mean
// what Decode says, and it never panics.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"hi\u00e9"}]}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"m"}}`,
		`{"jsonrpc":"2.0","method":"n","params":[1,2.5e-3,true,false,null]}`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"}]`,
		`{"jsonrpc":"2.0","id":1.0,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"result":"\ud800"}`,
		`{"a":`, `nul`, `{"jsonrpc":"2.0","id":-0,"result":-0.0e+1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		m, err := Decode(frame)
		rid, isResponse := PeekResponseID(frame) // never panics, whatever the frame
		if _, isInt := rid.Int64(); !isInt {
			isResponse = false // the Conn ends calls of the ids it sent: integers
		}
		if err != nil {
			return
		}
		if m.IsResponse() && m.ID.IsValid() && !m.ID.IsString() && (!isResponse || rid != m.ID) {
			if _, isInt := m.ID.Int64(); isInt {
				t.Fatalf("responseID read %v, %v from a response Decode reads as id %v", rid, isResponse, m.ID)
			}
		}
		if !json.Valid(frame) {
			t.Fatalf("Decode accepted invalid JSON: %q", frame)
		}
		var ref struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
			Result  json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(frame, &ref); err != nil {
			t.Fatalf("encoding/json rejects what Decode accepted: %v", err)
		}
		if ref.JSONRPC != "2.0" || ref.Method != m.Method {
			t.Fatalf("version %q method %q, Decode said method %q", ref.JSONRPC, ref.Method, m.Method)
		}
		if string(ref.Params) != string(m.Params) || (m.Result != nil && string(ref.Result) != string(m.Result)) {
			t.Fatalf("payload mismatch: params %s vs %s, result %s vs %s", ref.Params, m.Params, ref.Result, m.Result)
		}
		if m.ID.IsValid() {
			var back ID
			if err := json.Unmarshal(m.ID.appendJSON(nil), &back); err != nil || back != m.ID {
				t.Fatalf("id %v does not round-trip: %v", m.ID, err)
			}
		}
	})
}
