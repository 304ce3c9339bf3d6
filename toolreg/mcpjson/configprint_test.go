package mcpjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// printedServers are servers with secrets in every place a ServerConfig
// holds them: expanded from variables, and written literally.
func printedServers(t *testing.T) []*ServerConfig {
	c := parse(t, `{
		"gh": {"command": "docker", "args": ["run", "--token", "${GITHUB_TOKEN}", "u:${DB_PASSWORD}"],
		       "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}", "LITERAL": "S3cr3t-literal", "EMPTY": ""}, "timeout": "10s",
		       "oauth": {"clientSecret": "S3cr3t-extra"}},
		"api": {"type": "http", "url": "https://u:${DB_PASSWORD}@${API_HOST}/mcp?key=${GITHUB_TOKEN}&v=2",
		        "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}", "X-Api-Key": "S3cr3t-header"}, "allow": ["read_*"]}
	}`)
	literal := &ServerConfig{
		Name: "lit", Type: "http", URL: "https://user:" + secretPass + "@example.com/mcp?apikey=" + secretToken,
		Headers: map[string]string{"X-Api-Key": secretToken}, ToolTimeout: time.Minute, Disabled: true, Source: "code",
	}
	return append(c.Servers, literal)
}

// Every way of printing a ServerConfig — each fmt verb on the value and
// the pointer, alone and inside other values, slog's handlers and
// encoding/json — hides the secrets.
func TestServerConfigPrintsRedacted(t *testing.T) {
	for _, s := range printedServers(t) {
		v := *s
		want := s.String()
		for _, format := range []string{"%v", "%+v", "%s"} {
			for _, arg := range []any{v, s} {
				if got := fmt.Sprintf(format, arg); got != want {
					t.Errorf("Sprintf(%q, %T) = %s, want String's %s", format, arg, got, want)
				}
			}
		}
		if a, b := fmt.Sprintf("%#v", v), fmt.Sprintf("%#v", s); a != b || a != v.GoString() {
			t.Errorf("%%#v: value %s, pointer %s", a, b)
		}
		var text strings.Builder
		for _, format := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d", "%t", "%-20.3v"} {
			for _, arg := range []any{v, s, []ServerConfig{v}, []*ServerConfig{s}, struct{ S *ServerConfig }{s}, &Config{Servers: []*ServerConfig{s}}} {
				fmt.Fprintf(&text, format+"\n", arg)
			}
		}
		checkNoSecrets(t, "fmt", text.String())

		for _, arg := range []any{v, s, map[string]any{"s": s}} {
			data, err := json.Marshal(arg)
			if err != nil {
				t.Fatal(err)
			}
			checkNoSecrets(t, "json.Marshal", string(data))
		}

		var buf bytes.Buffer
		for _, h := range []slog.Handler{slog.NewJSONHandler(&buf, nil), slog.NewTextHandler(&buf, nil)} {
			slog.New(h).Info("server", "value", v, "ptr", s)
		}
		checkNoSecrets(t, "slog", buf.String())
	}
}

func TestServerConfigGoString(t *testing.T) {
	servers := printedServers(t)
	for i, want := range []string{
		`mcpjson.ServerConfig{Name:"gh", Type:"stdio", Command:"docker", Args:[]string{"run", "--token", "${GITHUB_TOKEN}", "u:${DB_PASSWORD}"}, ` +
			`Env:map[string]string{"EMPTY":"", "GITHUB_TOKEN":"${GITHUB_TOKEN}", "LITERAL":"[redacted]"}, Timeout:10000000000, ` +
			"Source:\"proj/.mcp.json\", Extra:map[string]json.RawMessage{\"oauth\":json.RawMessage(`\"[redacted]\"`)}}",
		`mcpjson.ServerConfig{Name:"api", Type:"http", URL:"https://u:${DB_PASSWORD}@${API_HOST}/mcp?key=${GITHUB_TOKEN}&v=[redacted]", ` +
			`Headers:map[string]string{"Authorization":"Bearer ${GITHUB_TOKEN}", "X-Api-Key":"[redacted]"}, Allow:[]string{"read_*"}, Source:"proj/.mcp.json"}`,
		`mcpjson.ServerConfig{Name:"lit", Type:"http", URL:"https://user:[redacted]@example.com/mcp?apikey=[redacted]", ` +
			`Headers:map[string]string{"X-Api-Key":"[redacted]"}, ToolTimeout:60000000000, Disabled:true, Source:"code"}`,
	} {
		if got := servers[i].GoString(); got != want {
			t.Errorf("GoString() =\n  %s\nwant\n  %s", got, want)
		}
	}
}

// MarshalJSON keeps the shape encoding/json gave a ServerConfig before —
// every exported field under its Go name — so whatever read that output
// still can; only the secrets are gone.
func TestServerConfigMarshalJSON(t *testing.T) {
	lit := printedServers(t)[2]
	data, err := json.Marshal(lit)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"Name":"lit","Type":"http","Command":"","Args":null,"Env":null,"Cwd":"","SafeEnv":false,` +
		`"URL":"https://user:[redacted]@example.com/mcp?apikey=[redacted]","Headers":{"X-Api-Key":"[redacted]"},"HeadersHelper":"","OAuth":null,` +
		`"Timeout":0,"ToolTimeout":60000000000,"ProtocolVersion":"","Disabled":true,"Allow":null,"Deny":null,"Source":"code","Scope":"","Approval":"","Extra":null}`
	if string(data) != want {
		t.Errorf("json.Marshal =\n  %s\nwant\n  %s", data, want)
	}
	// The same keys as the struct without the method.
	type plain ServerConfig
	raw, err := json.Marshal(plain(*lit))
	if err != nil {
		t.Fatal(err)
	}
	var a, b map[string]json.RawMessage
	json.Unmarshal(data, &a)
	json.Unmarshal(raw, &b)
	if len(a) != len(b) {
		t.Errorf("keys: %d, want %d as before", len(a), len(b))
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			t.Errorf("key %s is gone", k)
		}
	}
}

func TestServerConfigLogValue(t *testing.T) {
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}})).Info("server", "s", printedServers(t)[0])
	want := `{"level":"INFO","msg":"server","s":{"name":"gh","type":"stdio","command":"docker",` +
		`"args":["run","--token","${GITHUB_TOKEN}","u:${DB_PASSWORD}"],` +
		`"env":{"EMPTY":"","GITHUB_TOKEN":"${GITHUB_TOKEN}","LITERAL":"[redacted]"},"timeout":10000000000,` +
		`"source":"proj/.mcp.json","extra":{"oauth":"[redacted]"}}}` + "\n"
	if buf.String() != want {
		t.Errorf("slog JSON =\n  %s\nwant\n  %s", buf.String(), want)
	}
	var nilServer *ServerConfig
	if got := fmt.Sprint(nilServer); got != "<nil>" {
		t.Errorf("a nil *ServerConfig prints %q", got)
	}
	if data, _ := json.Marshal(nilServer); string(data) != "null" {
		t.Errorf("a nil *ServerConfig marshals as %s", data)
	}
}
