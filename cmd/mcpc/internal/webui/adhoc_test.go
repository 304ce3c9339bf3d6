package webui

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/browsertest"
)

func TestAdHocServerConfig(t *testing.T) {
	for _, tc := range []struct {
		in      addServer
		wantErr string
	}{
		{addServer{Name: "x", Command: "srv", Args: []string{"-v"}}, ""},
		{addServer{Name: "x", URL: "https://example.com/mcp"}, ""},
		{addServer{Name: "x", URL: "http://127.0.0.1:9/mcp"}, ""},
		{addServer{Name: "x", URL: "http://example.com/mcp"}, "https"},
		{addServer{Name: "x", URL: "file:///etc/passwd"}, ""},
		{addServer{Name: "x", Command: "srv", URL: "https://example.com/"}, "not both"},
		{addServer{Name: "x"}, "a command or a URL"},
		{addServer{Name: "a b", Command: "srv"}, "name"},
		{addServer{Name: "", Command: "srv"}, "name"},
		{addServer{Name: "x", Command: "srv", Args: make([]string, maxArgs+1)}, "arguments"},
	} {
		sc, err := tc.in.config()
		switch {
		case tc.in.URL == "file:///etc/passwd":
			if err == nil {
				t.Errorf("%+v: accepted %+v", tc.in, sc)
			}
		case tc.wantErr == "" && err != nil, tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%+v: err %v, want %q", tc.in, err, tc.wantErr)
		}
	}
}

// A server connected from the page joins the configured ones: its tools
// are listed and called like theirs.
func TestBrowserConnectAServer(t *testing.T) {
	srv := startShowcase(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b := browsertest.Start(t)
	b.Go(srv.URL())
	b.Wait("the servers", `return document.querySelectorAll("#server-list > li").length === 3 ? "ok" : ""`, 30*time.Second)
	b.Click("#connect summary")
	b.Type("#connect-name", "more")
	b.Type("#connect-command", `"`+exe+`" -test.run=^$`)
	b.Click("#connect-form button[type=submit]")
	if got := b.Wait("the answer", `const t = document.getElementById("connect-result").textContent; return t.startsWith("Connected") || t.startsWith("Not") ? t : ""`, 30*time.Second); got != "Connected more." {
		t.Fatalf("the page says %q", got)
	}
	openTool(t, b, "mcp__more__visit")
	b.Type("#connect-name", "x")
	b.Eval(`document.getElementById("connect-name").value = "bad name"; document.getElementById("connect-command").value = ""; document.getElementById("connect-url").value = "http://example.com/mcp"`, nil)
	b.Click("#connect-form button[type=submit]")
	if got := b.Wait("the refusal", `const t = document.getElementById("connect-result").textContent; return t.startsWith("Not") ? t : ""`, 30*time.Second); !strings.Contains(got, "name") {
		t.Errorf("a bad name: the page says %q", got)
	}
}
