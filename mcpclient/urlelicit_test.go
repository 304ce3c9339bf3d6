package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// URLElicitations reads the pages of a -32042 error, however it is
// wrapped, and nothing from any other error or from data that lists none.
func TestURLElicitationsReadsTheError(t *testing.T) {
	page := `{"mode":"url","elicitationId":"e1","url":"https://pay.example/1","message":"pay"}`
	many := strings.Repeat(page+",", 20) + page
	for _, tc := range []struct {
		name string
		err  error
		want []ElicitParams
	}{
		{"one page", &jsonrpc.Error{Code: -32042, Data: json.RawMessage(`{"elicitations":[` + page + `]}`)},
			[]ElicitParams{{Mode: "url", ElicitationID: "e1", URL: "https://pay.example/1", Message: "pay"}}},
		{"wrapped", fmt.Errorf("calling: %w", &jsonrpc.Error{Code: -32042, Data: json.RawMessage(`{"elicitations":[` + page + `]}`)}),
			[]ElicitParams{{Mode: "url", ElicitationID: "e1", URL: "https://pay.example/1", Message: "pay"}}},
		{"form entries and incomplete ones left out", &jsonrpc.Error{Code: -32042, Data: json.RawMessage(`{"elicitations":[
			{"mode":"form","elicitationId":"f","url":"https://x.example"},
			{"mode":"url","url":"https://x.example"},
			{"mode":"url","elicitationId":"n"},
			7, ` + page + `]}`)},
			[]ElicitParams{{Mode: "url", ElicitationID: "e1", URL: "https://pay.example/1", Message: "pay"}}},
		{"another code", &jsonrpc.Error{Code: -32602, Data: json.RawMessage(`{"elicitations":[` + page + `]}`)}, nil},
		{"no data", &jsonrpc.Error{Code: -32042}, nil},
		{"data not an object", &jsonrpc.Error{Code: -32042, Data: json.RawMessage(`[1]`)}, nil},
		{"not a JSON-RPC error", errors.New("-32042"), nil},
		{"nil", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, URLElicitations(tc.err)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	got := URLElicitations(&jsonrpc.Error{Code: -32042, Data: json.RawMessage(`{"elicitations":[` + many + `]}`)})
	if len(got) != maxURLElicitations {
		t.Errorf("%d pages of 21 kept, want %d", len(got), maxURLElicitations)
	}
}

func FuzzURLElicitations(f *testing.F) {
	f.Add([]byte(`{"elicitations":[{"mode":"url","elicitationId":"e","url":"https://a.example","message":"m"}]}`))
	f.Add([]byte(`{"elicitations":null}`))
	f.Add([]byte(`{"elicitations":[{"mode":"url","elicitationId":"e","url":"x","requestedSchema":{}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := URLElicitations(&jsonrpc.Error{Code: -32042, Data: data})
		if len(got) > maxURLElicitations {
			t.Fatalf("%d pages", len(got))
		}
		for _, p := range got {
			if p.Mode != "url" || p.URL == "" || p.ElicitationID == "" || p.RequestedSchema != nil {
				t.Fatalf("kept %+v", p)
			}
		}
	})
}

// notifications/elicitation/complete reaches OnElicitationComplete with
// its id, in order with the other notifications; one without an id does
// not.
func TestElicitationCompleteReachesItsCallback(t *testing.T) {
	f := fakemcp.New(t)
	got := make(chan string, 4)
	connect(t, f, &Options{
		OnElicitationComplete: func(id string) { got <- id },
		OnNotification: func(method string, _ json.RawMessage) {
			got <- "other " + method
		},
	})
	ctx := ctx5s(t)
	f.Conn.Notify(ctx, "notifications/elicitation/complete", json.RawMessage(`{"elicitationId":"e-1"}`))
	f.Conn.Notify(ctx, "notifications/elicitation/complete", json.RawMessage(`{}`))
	f.Conn.Notify(ctx, "last", nil)
	for _, want := range []string{"e-1", "other last"} {
		select {
		case g := <-got:
			if g != want {
				t.Errorf("got %q, want %q", g, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no %q", want)
		}
	}
}

// A session with an elicitation handler and ElicitationURL declares both
// modes; the handler gets a URL-mode request with its id and URL.
func TestURLModeElicitationIsDeclaredAndHandled(t *testing.T) {
	f := fakemcp.New(t)
	seen := make(chan *ElicitParams, 1)
	connect(t, f, &Options{
		Elicitation: func(_ context.Context, p *ElicitParams) (*ElicitResult, error) {
			seen <- p
			return &ElicitResult{Action: "accept"}, nil
		},
		ElicitationURL: true,
	})
	var init struct {
		Capabilities struct {
			Elicitation map[string]json.RawMessage `json:"elicitation"`
		} `json:"capabilities"`
	}
	json.Unmarshal(f.Request("initialize").Params, &init)
	if _, ok := init.Capabilities.Elicitation["url"]; !ok {
		t.Errorf("elicitation capability %v, want url mode", init.Capabilities.Elicitation)
	}
	var res ElicitResult
	err := f.Conn.Call(ctx5s(t), "elicitation/create", json.RawMessage(`{"mode":"url","elicitationId":"e-2","url":"https://a.example/p","message":"go"}`), &res)
	if err != nil || res.Action != "accept" || res.Content != nil {
		t.Errorf("answer %+v, %v; want accept without content", res, err)
	}
	p := <-seen
	if p.ElicitationID != "e-2" || p.URL != "https://a.example/p" || p.Mode != "url" {
		t.Errorf("handler got %+v", p)
	}
}
