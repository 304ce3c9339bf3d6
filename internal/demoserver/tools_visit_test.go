package demoserver

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// pagesFake serves visit pages in memory: load visits one.
type pagesFake struct {
	mu    sync.Mutex
	pages map[string]func()
}

func (p *pagesFake) page(id string, visited func()) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pages == nil {
		p.pages = map[string]func(){}
	}
	p.pages[id] = visited
	return "http://127.0.0.1:1/visit/" + id, nil
}

func (p *pagesFake) load(id string) {
	p.mu.Lock()
	f := p.pages[id]
	p.mu.Unlock()
	f()
}

// The visit tool is listed only with VisitPage, needs elicitation.url,
// asks with an elicitation/create of mode url carrying its id, and on
// accept waits for the page, whose loading sends the completion.
func TestVisitTool(t *testing.T) {
	if names := toolNames(startInitialized(t, nil, nil, `{}`)); strings.Contains(names, "visit") {
		t.Errorf("listed without VisitPage: %s", names)
	}
	p := &pagesFake{}
	c := startInitialized(t, &Options{VisitPage: p.page}, func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		var e urlElicitation
		json.Unmarshal(req.Params, &e)
		if e.Mode != "url" || e.ElicitationID != "visit-1" || !strings.HasSuffix(e.URL, "/visit-1") {
			t.Errorf("elicitation %s", req.Params)
		}
		p.load(e.ElicitationID) // the completion comes before the answer
		return map[string]string{"action": "accept"}, nil
	}, `{"elicitation":{"form":{},"url":{}}}`)
	if got := c.mustCallTool("visit", `{"waitMs": 5000}`).text(t); got != "the page of visit-1 was visited" {
		t.Errorf("result %q", got)
	}
	if n := c.nextNote(); n.Method != "notifications/elicitation/complete" || string(n.Params) != `{"elicitationId":"visit-1"}` {
		t.Errorf("note %s %s", n.Method, n.Params)
	}
	form := startInitialized(t, &Options{VisitPage: p.page}, nil, `{"elicitation":{}}`)
	if res := form.mustCallTool("visit", `{}`); !res.IsError || !strings.Contains(res.text(t), "elicitation.url") {
		t.Errorf("without url mode: %+v", res)
	}
}

// With required the tool answers -32042 naming a page, until that page
// was loaded.
func TestVisitToolRequired(t *testing.T) {
	p := &pagesFake{}
	c := startInitialized(t, &Options{VisitPage: p.page}, nil, `{"elicitation":{"url":{}}}`)
	_, err := c.callTool("visit", `{"required": true}`)
	je := wantCode(t, err, -32042)
	var data struct {
		Elicitations []urlElicitation `json:"elicitations"`
	}
	if json.Unmarshal(je.Data, &data) != nil || len(data.Elicitations) != 1 || data.Elicitations[0].ElicitationID != "visit-1" {
		t.Fatalf("data %s", je.Data)
	}
	p.load("visit-1")
	if got := c.mustCallTool("visit", `{"required": true}`).text(t); got != "the page of visit-1 was visited" {
		t.Errorf("after the visit: %q", got)
	}
}

func toolNames(c *client) string {
	var res struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	c.call("tools/list", json.RawMessage(`{}`), &res)
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return strings.Join(names, " ")
}
