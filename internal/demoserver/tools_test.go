package demoserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

type toolInfo struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

type toolsPage struct {
	Tools      []toolInfo `json:"tools"`
	NextCursor string     `json:"nextCursor"`
}

// listAllTools walks tools/list to the end and returns every tool and the
// number of pages.
func (c *client) listAllTools() ([]toolInfo, int) {
	c.t.Helper()
	var all []toolInfo
	cursor, pages := "", 0
	for {
		params := map[string]string{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var p toolsPage
		if err := c.call("tools/list", params, &p); err != nil {
			c.t.Fatalf("tools/list page %d: %v", pages+1, err)
		}
		pages++
		all = append(all, p.Tools...)
		if p.NextCursor == "" {
			return all, pages
		}
		if p.NextCursor == cursor {
			c.t.Fatalf("cursor %q repeated", cursor)
		}
		cursor = p.NextCursor
	}
}

var demoToolNames = []string{"echo", "add", "slow", "sample", "elicit", "roots", "mixed", "fail", "big", "log", "change", "touch", "research"}

func TestToolsList(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	tools, pages := c.listAllTools()
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
		var schema struct{ Type string }
		if err := json.Unmarshal(tl.InputSchema, &schema); err != nil || schema.Type != "object" {
			t.Errorf("tool %s: inputSchema %s is not an object schema", tl.Name, tl.InputSchema)
		}
		if tl.Title == "" || tl.Description == "" {
			t.Errorf("tool %s: missing title or description", tl.Name)
		}
	}
	if d := cmp.Diff(demoToolNames, names); d != "" {
		t.Errorf("tool names (-want +got):\n%s", d)
	}
	if pages != 1 {
		t.Errorf("%d pages, want 1", pages)
	}
	for _, tl := range tools {
		if (tl.Name == "add" || tl.Name == "mixed") != (tl.OutputSchema != nil) {
			t.Errorf("tool %s: outputSchema = %s", tl.Name, tl.OutputSchema)
		}
	}
}

func TestToolsListPagination(t *testing.T) {
	c := startInitialized(t, &Options{ExtraTools: 1000, PageSize: 100}, nil, `{}`)
	tools, pages := c.listAllTools()
	want := len(demoToolNames) + 1000
	if len(tools) != want {
		t.Fatalf("%d tools, want %d", len(tools), want)
	}
	if wantPages := (want + 99) / 100; pages != wantPages {
		t.Errorf("%d pages, want %d", pages, wantPages)
	}
	seen := map[string]bool{}
	for _, tl := range tools {
		if seen[tl.Name] {
			t.Errorf("tool %s listed twice", tl.Name)
		}
		seen[tl.Name] = true
	}
	for _, name := range []string{"tool-0001", "tool-0500", "tool-1000"} {
		if !seen[name] {
			t.Errorf("tool %s not listed", name)
		}
	}
	if got := c.mustCallTool("tool-0042", `{"value":"hi"}`).text(t); got != "tool-0042: hi" {
		t.Errorf("tool-0042 said %q", got)
	}
}

func TestToolsListBadCursor(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, cursor := range []string{"nope", encodeCursor(1000), base64.RawURLEncoding.EncodeToString([]byte("12"))} {
		err := c.call("tools/list", map[string]string{"cursor": cursor}, nil)
		wantCode(t, err, jsonrpc.CodeInvalidParams, "invalid cursor")
	}
}

func TestSimpleTools(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, tc := range []struct {
		name, args, text, structured string
		isError                      bool
	}{
		{name: "echo", args: `{"text":"hello, world"}`, text: "hello, world"},
		{name: "echo", args: `{"text":""}`, text: ""},
		{name: "add", args: `{"a":1,"b":2}`, text: "3", structured: `{"sum":3}`},
		{name: "add", args: `{"a":0.5,"b":-2}`, text: "-1.5", structured: `{"sum":-1.5}`},
		{name: "fail", text: "the fail tool always fails", isError: true},
		{name: "big", args: `{"bytes":30}`, text: "abcdefghijklmnopqrstuvwxyzabcd"},
		{name: "big", args: `{"bytes":0}`, text: ""},
		{name: "log", args: `{"message":"m"}`, text: "sent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := c.mustCallTool(tc.name, tc.args)
			if got := res.text(t); !strings.HasPrefix(got, tc.text) || (tc.text == "" && got != "") {
				t.Errorf("text = %q, want %q", got, tc.text)
			}
			if string(res.StructuredContent) != tc.structured {
				t.Errorf("structuredContent = %s, want %s", res.StructuredContent, tc.structured)
			}
			if res.IsError != tc.isError {
				t.Errorf("isError = %v, want %v", res.IsError, tc.isError)
			}
		})
	}
}

func TestBigToolSize(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	got := c.mustCallTool("big", `{"bytes":1048576}`).text(t)
	if len(got) != 1<<20 || got[len(got)-1] != bigPattern[(1<<20-1)%len(bigPattern)] {
		t.Errorf("got %d bytes ending in %q, want 1 MiB of the pattern", len(got), got[len(got)-1:])
	}
}

func TestToolArgumentErrors(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, tc := range []struct{ name, args, want string }{
		{"nope", `{}`, `unknown tool "nope"`},
		{"echo", `{}`, `missing required argument "text"`},
		{"echo", ``, `missing required argument "text"`},
		{"echo", `{"text":7}`, `argument "text" must be a string`},
		{"add", `{"a":1}`, `missing required argument "b"`},
		{"add", `{"a":"1","b":2}`, `argument "a" must be a number`},
		{"add", `[1,2]`, `arguments must be an object`},
		{"big", `{"bytes":-1}`, `argument "bytes" must be between`},
		{"big", `{"bytes":1.5}`, `argument "bytes" must be an integer`},
		{"slow", `{"steps":-1}`, `argument "steps"`},
		{"slow", `{"delayMs":"x"}`, `argument "delayMs" must be an integer`},
		{"log", `{"level":"loud","message":"m"}`, `argument "level"`},
		{"touch", `{}`, `missing required argument "uri"`},
		{"dynamic", `{}`, `unknown tool "dynamic"`},
	} {
		t.Run(tc.name+tc.args, func(t *testing.T) {
			_, err := c.callTool(tc.name, tc.args)
			wantCode(t, err, jsonrpc.CodeInvalidParams, tc.want)
		})
	}
}

func TestMixedTool(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	res := c.mustCallTool("mixed", "")
	var types []string
	for _, b := range res.Content {
		types = append(types, b.Type)
	}
	if d := cmp.Diff([]string{"text", "image", "audio", "resource_link", "resource"}, types); d != "" {
		t.Fatalf("content types (-want +got):\n%s", d)
	}
	if string(res.StructuredContent) != `{"items":5}` {
		t.Errorf("structuredContent = %s", res.StructuredContent)
	}
	img, audio, link, embedded := res.Content[1], res.Content[2], res.Content[3], res.Content[4]
	if img.MimeType != "image/png" || audio.MimeType != "audio/wav" {
		t.Errorf("mime types %q, %q", img.MimeType, audio.MimeType)
	}
	raw, err := base64.StdEncoding.DecodeString(img.Data)
	if err != nil {
		t.Fatalf("image data: %v", err)
	}
	if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
		t.Errorf("image is not a valid PNG: %v", err)
	}
	raw, err = base64.StdEncoding.DecodeString(audio.Data)
	if err != nil || len(raw) < 44 || string(raw[:4]) != "RIFF" || string(raw[8:12]) != "WAVE" {
		t.Errorf("audio is not a WAV file (%v)", err)
	}
	if link.URI != readmeURI || link.Name == "" {
		t.Errorf("resource_link = %+v", link)
	}
	var contents struct{ URI, MimeType, Text string }
	if err := json.Unmarshal(embedded.Resource, &contents); err != nil || contents.URI != numbersURI || !json.Valid([]byte(contents.Text)) {
		t.Errorf("embedded resource = %s (%v)", embedded.Resource, err)
	}
}

func TestChangeTool(t *testing.T) {
	c := startInitialized(t, &Options{ExtraTools: 3, PageSize: 5}, nil, `{}`)
	for i, want := range []string{`added tool "dynamic"`, `removed tool "dynamic"`} {
		if got := c.mustCallTool("change", "").text(t); got != want {
			t.Errorf("change #%d = %q, want %q", i+1, got, want)
		}
		if n := c.nextNote(); n.Method != "notifications/tools/list_changed" {
			t.Errorf("notification %s, want notifications/tools/list_changed", n.Method)
		}
		tools, _ := c.listAllTools()
		last := tools[len(tools)-1].Name
		if added := i == 0; added != (last == "dynamic") {
			t.Errorf("after change #%d, last tool is %s", i+1, last)
		}
		if i == 0 {
			if got := c.mustCallTool("dynamic", "").text(t); got != "the dynamic tool is here" {
				t.Errorf("dynamic said %q", got)
			}
		}
	}
	if _, err := c.callTool("dynamic", ""); err == nil {
		t.Error("dynamic can be called after it was removed")
	}
}

func TestLogTool(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	type message struct{ Level, Logger, Data string }
	for _, tc := range []struct {
		setLevel, level string
		sent            bool
	}{
		{"", "debug", false},
		{"", "info", true},
		{"", "", true},
		{"debug", "debug", true},
		{"error", "warning", false},
		{"error", "emergency", true},
	} {
		if tc.setLevel != "" {
			if err := c.call("logging/setLevel", map[string]string{"level": tc.setLevel}, nil); err != nil {
				t.Fatal(err)
			}
		}
		args := fmt.Sprintf(`{"level":%q,"message":"hello"}`, tc.level)
		got := c.mustCallTool("log", args).text(t)
		if !tc.sent {
			if !strings.HasPrefix(got, "not sent") {
				t.Errorf("level %s, log %s: %q, want not sent", tc.setLevel, tc.level, got)
			}
			continue
		}
		n := c.nextNote()
		var m message
		json.Unmarshal(n.Params, &m)
		want := message{Level: tc.level, Logger: "demo", Data: "hello"}
		if want.Level == "" {
			want.Level = "info"
		}
		if got != "sent" || n.Method != "notifications/message" || m != want {
			t.Errorf("level %s, log %s: %q and %s %+v, want sent and %+v", tc.setLevel, tc.level, got, n.Method, m, want)
		}
	}
	c.noNote(20 * time.Millisecond)
}

func TestBigToolPattern(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	for _, n := range []int{1, 25, 26, 27, 51, 52, 53, 1000, 4097} {
		got := c.mustCallTool("big", fmt.Sprintf(`{"bytes":%d}`, n)).text(t)
		if want := strings.Repeat(bigPattern, n/len(bigPattern)+1)[:n]; got != want {
			t.Errorf("big %d: got %d bytes %.40q…, want the pattern", n, len(got), got)
		}
	}
}
