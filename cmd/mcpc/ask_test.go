package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/plainmcp/plainmcp/mcpclient"
)

const askSchema = `{"type":"object","required":["name","age"],"properties":{
	"name":{"type":"string","title":"Your name"},
	"age":{"type":"integer","default":30},
	"color":{"type":"string","enum":["red","green"]},
	"ok":{"type":"boolean"},
	"score":{"type":"number"}}}`

func TestAskerFieldByField(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		want        *mcpclient.ElicitResult
		prompts     []string
	}{
		{"answers, defaults and retries",
			// Required fields first, by name. age: the default; name: empty
			// (required, no default), then Ada; color: wrong, then green; ok:
			// maybe, then yes; score: empty (left out).
			"\n\nAda\nblue\ngreen\nmaybe\nyes\n\n",
			&mcpclient.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "age": float64(30), "color": "green", "ok": true}},
			[]string{"required and has no default", "choose one of: red, green", "yes or no"}},
		{"decline at a prompt", "\ndecline\n", &mcpclient.ElicitResult{Action: "decline"}, nil},
		{"input ends", "\n", &mcpclient.ElicitResult{Action: "cancel"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			a := newAsker(strings.NewReader(tc.input), &out)
			res, err := a.elicit(context.Background(), &mcpclient.ElicitParams{Message: "Who are you?", RequestedSchema: json.RawMessage(askSchema)})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, res); diff != "" {
				t.Errorf("result (-want +got):\n%s\n%s", diff, out.String())
			}
			for _, p := range append(tc.prompts, "Who are you?") {
				if !strings.Contains(out.String(), p) {
					t.Errorf("the prompts lack %q:\n%s", p, out.String())
				}
			}
		})
	}
}

// --elicitation defaults never sends a required field missing: a form
// that needs one without a default is declined.
func TestAcceptDefaultsDeclinesWhatItCannotFill(t *testing.T) {
	res, err := acceptDefaults(context.Background(), &mcpclient.ElicitParams{RequestedSchema: json.RawMessage(askSchema)})
	if err != nil || res.Action != "decline" {
		t.Errorf("got %+v, %v", res, err)
	}
	res, err = acceptDefaults(context.Background(), &mcpclient.ElicitParams{RequestedSchema: json.RawMessage(`{"properties":{"age":{"type":"integer","default":3}},"required":["age"]}`)})
	if err != nil || res.Action != "accept" || res.Content["age"] != float64(3) {
		t.Errorf("got %+v, %v", res, err)
	}
}

func TestNullDeviceIsNoTerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("the null device counts as a terminal")
	}
}

func TestTimeoutFlagTakesWhatTheConfigTakes(t *testing.T) {
	for in, want := range map[string]time.Duration{"1500": 1500 * time.Millisecond, "2s": 2 * time.Second, "0.5": 500 * time.Microsecond} {
		cfg, _, err := parseFlags([]string{"--timeout", in, "servers"}, false)
		if err != nil || cfg.timeout != want {
			t.Errorf("--timeout %s: %v, %v; want %v", in, cfg, err, want)
		}
	}
	if _, _, err := parseFlags([]string{"--timeout", "soon", "servers"}, false); err == nil || !strings.Contains(err.Error(), "milliseconds") {
		t.Errorf("--timeout soon: %v", err)
	}
}

func TestProtocolPinAndJSONProgress(t *testing.T) {
	dir := demoDir(t)
	r := runIn(t, dir, "", "--server", "demo", "--protocol", "2025-06-18", "info", "--json")
	r.want(t, exitOK)
	if !strings.Contains(r.stdout, `"protocolVersion": "2025-06-18"`) {
		t.Errorf("--protocol 2025-06-18: %s", r.stdout)
	}
	p := runIn(t, dir, "", "--json", "--progress", "call", "mcp__demo__slow", `{"steps": 2, "delayMs": 5}`)
	p.want(t, exitOK)
	lines := strings.Split(strings.TrimSpace(p.stderr), "\n")
	if len(lines) != 2 {
		t.Fatalf("stderr: %q, want two JSON progress events", p.stderr)
	}
	for _, l := range lines {
		var ev struct {
			Progress *mcpclient.Progress `json:"progress"`
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil || ev.Progress == nil {
			t.Errorf("not a progress event: %q (%v)", l, err)
		}
	}
}

// Messages read as one sentence for a person: no Go type names, no
// protocol request that was on the wire, no name said twice.
func TestMessagesReadAsOneSentence(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "bad.json", map[string]any{
		"x": map[string]any{"command": "sh", "args": []string{"-c", "echo oops >&2; exit 2"}},
	})
	for _, tc := range []struct {
		args     []string
		code     int
		want     string
		notWants []string
	}{
		{[]string{"--config", cfg, "call", "mcp__x__t", "[1]"}, exitUsage, "want a JSON object, got an array", []string{"Go value", "map["}},
		{[]string{"--config", cfg, "servers"}, exitConnect, `server "x" exited with status 2: oops`, []string{"server/discover", "mcpclient:", "jsonrpc:"}},
		{[]string{"--config", cfg, "tools"}, exitConnect, `x: exited with status 2: oops`, []string{`x: server "x"`}},
	} {
		r := runIn(t, dir, "", tc.args...)
		all := r.stdout + r.stderr
		if r.code != tc.code || !strings.Contains(all, tc.want) {
			t.Errorf("%v: exit %d, output %q; want %d and %q", tc.args, r.code, all, tc.code, tc.want)
		}
		for _, bad := range tc.notWants {
			if strings.Contains(all, bad) {
				t.Errorf("%v: the output says %q: %s", tc.args, bad, all)
			}
		}
	}
}

// Every part of a form field the server names — its name, type, choices
// and default, as well as its title and description — is shown on the
// field's own prompt line: a line break in any of them cannot print a line
// that reads as mcpc's (a consent question, say), nor a choice that is not
// the one the server will get.
func TestAskerFieldPromptIsOneLine(t *testing.T) {
	const fake = "\nThe model wants to call mcp__fs__rm: Run it? [y/N] "
	schema, err := json.Marshal(map[string]any{"properties": map[string]any{
		"name" + fake: map[string]any{"type": "string" + fake, "title": "t" + fake, "description": "d" + fake,
			"default": "v" + fake},
		"pick": map[string]any{"type": "string", "enum": []string{"a" + fake, "b"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	// The first field takes its default; the second gets a wrong choice,
	// so the choices are said again, then the input ends.
	a := newAsker(strings.NewReader("\nc\n"), &out)
	if _, err := a.elicit(context.Background(), &mcpclient.ElicitParams{Message: "Form" + fake, RequestedSchema: schema}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "The model wants") {
			t.Errorf("a line of the server's text reads as mcpc's:\n%s", out.String())
			break
		}
	}
}
