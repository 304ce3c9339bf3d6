package streamhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// valueEnd finds the end of the first object or array however the text
// is cut into pieces, strings and escapes included.
func TestValueEnd(t *testing.T) {
	for _, tc := range []struct {
		text  string
		whole int // the length of the first value; -1: never whole
	}{
		{`{"a":1}`, 7},
		{` {"a":"}"}  `, 10},
		{`{"a":"\"}"}`, 11},
		{`{"a":"\\"}x`, 10},
		{`{"a":"\\\"}"}`, 13},
		{`[{"b":[1,2]},"]"]`, 17},
		{`{"a":{"b":{}}`, -1},
		{`"a string"`, -1},
		{`42`, -1},
	} {
		for cut := 1; cut <= len(tc.text); cut++ {
			var v valueEnd
			got := -1
			for i := 0; i < len(tc.text) && got < 0; i += cut {
				piece := tc.text[i:min(i+cut, len(tc.text))]
				for j := range len(piece) { // byte by byte within the piece, to find where
					var w valueEnd = v
					if w.scan([]byte(piece[:j+1])) {
						got = i + j + 1
						break
					}
				}
				v.scan([]byte(piece))
			}
			if got != tc.whole {
				t.Errorf("%q in pieces of %d: whole after %d bytes, want %d", tc.text, cut, got, tc.whole)
			}
		}
	}
}

func FuzzValueEnd(f *testing.F) {
	for _, s := range []string{`{"a":"\\\""}`, `[1,{"x":["]"]}]`, `{}`, `[]`, ` {"\u0022":"}"} `} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		dec := json.NewDecoder(bytes.NewReader(data))
		var first json.RawMessage
		if dec.Decode(&first) != nil || (first[0] != '{' && first[0] != '[') {
			return
		}
		end := int(dec.InputOffset())
		step := int(cut%16) + 1
		var v valueEnd
		for i := 0; i < len(data); i += step {
			if v.scan(data[i:min(i+step, len(data))]) {
				if i+step < end {
					t.Fatalf("%q: whole in the piece at %d, before its end at %d", data, i, end)
				}
				return
			}
		}
		t.Fatalf("%q: never whole; it ends at %d", data, end)
	})
}

// A server that answers with a whole JSON response and then holds the
// body open (a chunked body it never ends) does not hold the call: the
// answer ends it at once, in either era.
func TestWholeJSONAnswerEndsTheCall(t *testing.T) {
	checkLeaks(t)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m rpcwire.Message
		json.NewDecoder(r.Body).Decode(&m)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+m.ID.String()+`,"result":{"ok":"}\"{"}}`)
		w.(http.Flusher).Flush() // chunked, and never ended
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := Dial(ctx, Config{URL: srv.URL, Client: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	c := jsonrpc.NewConn(st, nil)
	defer c.Close()
	var res struct{ OK string }
	if err := c.Call(ctx, "tools/list", nil, &res); err != nil || res.OK != `}"{` {
		t.Fatalf("got %+v, %v; want the answer", res, err)
	}
	if ctx.Err() != nil {
		t.Fatal("the call waited for the body's end")
	}
}
