package webui

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient/apps"
)

func get(t *testing.T, u, host string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func post(t *testing.T, u, origin, ctype, body string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", u, strings.NewReader(body))
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(resp.Body)
	json.Unmarshal(b, &out)
	return resp, out
}

// Every request needs the token and the Host the server printed; a
// request that changes state needs the page's Origin and a JSON body.
func TestTokenHostOrigin(t *testing.T) {
	srv, _ := startPage(t, false)
	page := srv.URL()
	u, _ := url.Parse(page)
	root := "http://" + u.Host
	for _, tc := range []struct {
		name, url, host string
		want            int
	}{
		{"the page", page, "", 200},
		{"its API", page + "api/tools", "", 200},
		{"no token", root + "/", "", 404},
		{"no token, API", root + "/api/tools", "", 404},
		{"wrong token", root + "/t/" + strings.Repeat("0", 48) + "/", "", 404},
		{"token as a query", root + "/?token=" + srv.token, "", 404},
		{"foreign Host", page, "evil.example:" + u.Port(), 421},
		{"localhost for 127.0.0.1", page, "localhost:" + u.Port(), 421},
		{"sandbox without its token", srv.SandboxOrigin() + "/sandbox.html", "", 404},
		{"sandbox with the page's token", srv.SandboxOrigin() + "/s/" + srv.token + "/sandbox.html", "", 404},
		{"sandbox, foreign Host", srv.sandboxURL(apps.CSP{}), "evil.example", 421},
		{"sandbox", srv.sandboxURL(apps.CSP{}), "", 200},
	} {
		if got := get(t, tc.url, tc.host).StatusCode; got != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, got, tc.want)
		}
	}
	call := page + "api/call"
	body := `{"from":"person","name":"mcp__apps__clock"}`
	for _, tc := range []struct {
		name, origin, ctype string
		want                int
	}{
		{"same origin", root, "application/json", 200},
		{"no Origin", "", "application/json", 403},
		{"foreign Origin", "http://evil.example", "application/json", 403},
		{"the sandbox's Origin", srv.SandboxOrigin(), "application/json", 403},
		{"a form", root, "application/x-www-form-urlencoded", 415},
	} {
		if resp, _ := post(t, call, tc.origin, tc.ctype, body); resp.StatusCode != tc.want {
			t.Errorf("POST %s: status %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
}

func TestStartRefusesOtherAddresses(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "localhost:0"} {
		if _, err := Start(&Options{Addr: addr}); !errors.Is(err, ErrNotLoopback) {
			t.Errorf("%q: err = %v, want ErrNotLoopback", addr, err)
		}
	}
}

// The sandbox proxy's header carries the app's CSP (the extension's
// restrictive default when it names nothing), limited to being framed by
// the page; the page's own policy frames the sandbox origin alone.
func TestCSPHeaders(t *testing.T) {
	srv, _ := startPage(t, false)
	u, _ := url.Parse(srv.URL())
	host := "http://" + u.Host
	for _, tc := range []struct {
		name string
		csp  apps.CSP
		want []string
		not  []string
	}{
		{"none declared", apps.CSP{}, []string{"default-src 'none'", "connect-src 'none'", "frame-src 'none'", "object-src 'none'", "base-uri 'self'", "img-src 'self' data:"}, []string{"https:"}},
		{"connect", apps.CSP{ConnectDomains: []string{"https://api.example.com"}}, []string{"connect-src https://api.example.com"}, []string{"script-src 'self' 'unsafe-inline' https"}},
		{"resources", apps.CSP{ResourceDomains: []string{"https://*.cdn.example"}}, []string{"script-src 'self' 'unsafe-inline' https://*.cdn.example", "font-src 'self' https://*.cdn.example", "connect-src 'none'"}, nil},
		{"frames and base", apps.CSP{FrameDomains: []string{"https://www.youtube.com"}, BaseURIDomains: []string{"https://base.example"}}, []string{"frame-src https://www.youtube.com", "base-uri https://base.example"}, []string{"frame-src 'none'"}},
		{"injection", apps.CSP{ConnectDomains: []string{"*; script-src *"}}, []string{"connect-src 'none'"}, []string{"script-src *"}},
	} {
		resp := get(t, srv.sandboxURL(tc.csp), "")
		got := resp.Header.Get("Content-Security-Policy")
		for _, w := range append(tc.want, "frame-ancestors "+host) {
			if !strings.Contains(got, w) {
				t.Errorf("%s: policy %q lacks %q", tc.name, got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: policy %q has %q", tc.name, got, n)
			}
		}
	}
	pageCSP := get(t, srv.URL(), "").Header.Get("Content-Security-Policy")
	for _, w := range []string{"script-src 'self';", "frame-src " + srv.SandboxOrigin() + ";", "frame-ancestors 'none'"} {
		if !strings.Contains(pageCSP, w) {
			t.Errorf("page policy %q lacks %q", pageCSP, w)
		}
	}
}

// A call the person did not start runs only with their consent, with
// --yes, or for a read-only tool; an app reaches only its server's tools
// visible to apps.
func TestCallConsentAndVisibility(t *testing.T) {
	for _, yes := range []bool{false, true} {
		srv, _ := startPage(t, yes)
		u, _ := url.Parse(srv.URL())
		origin := "http://" + u.Host
		call := srv.URL() + "api/call"
		for _, tc := range []struct {
			body string
			want int    // status without --yes
			err  string // in the answer's error
		}{
			{`{"from":"link","name":"mcp__apps__clock"}`, 200, ""},
			{`{"from":"link","name":"mcp__apps__note"}`, 403, "agreed"},
			{`{"from":"link","name":"mcp__apps__note","consent":true}`, 200, ""},
			{`{"from":"app","server":"apps","tool":"clock"}`, 200, ""},
			{`{"from":"app","server":"apps","tool":"tick"}`, 403, "agreed"},
			{`{"from":"app","server":"apps","tool":"tick","consent":true}`, 200, ""},
			{`{"from":"app","server":"apps","tool":"note","consent":true}`, 200, "not visible to apps"},
			{`{"from":"app","server":"other","tool":"clock","consent":true}`, 200, "not visible to apps"},
			{`{"from":"robot","name":"mcp__apps__clock"}`, 400, ""},
		} {
			want, wantErr := tc.want, tc.err
			if yes && want == 403 {
				want, wantErr = 200, ""
			}
			resp, out := post(t, call, origin, "application/json", tc.body)
			if resp.StatusCode != want {
				t.Errorf("yes=%v %s: status %d, want %d (%v)", yes, tc.body, resp.StatusCode, want, out)
				continue
			}
			e, _ := out["error"].(string)
			if wantErr == "" && want == 200 && e != "" || wantErr != "" && !strings.Contains(e, wantErr) {
				t.Errorf("yes=%v %s: error %q, want %q", yes, tc.body, e, wantErr)
			}
		}
	}
}

// A server's read-only mark is believed only of a server the host
// trusts: with none trusted, a link's or an app's call of the clock (a
// tool its server marks read-only) needs consent too.
func TestReadOnlyOnlyFromTrustedServers(t *testing.T) {
	srv, _ := startPageWith(t, Options{})
	u, _ := url.Parse(srv.URL())
	origin := "http://" + u.Host
	for _, body := range []string{`{"from":"link","name":"mcp__apps__clock"}`, `{"from":"app","server":"apps","tool":"clock"}`} {
		resp, out := post(t, srv.URL()+"api/call", origin, "application/json", body)
		if e, _ := out["error"].(string); resp.StatusCode != 403 || !strings.Contains(e, "agreed") {
			t.Errorf("%s: status %d, error %q; want 403, not agreed", body, resp.StatusCode, e)
		}
	}
	var tools []toolJSON
	if err := json.NewDecoder(get(t, srv.URL()+"api/tools", "").Body).Decode(&tools); err != nil || len(tools) == 0 {
		t.Fatalf("api/tools: %v, %d tools", err, len(tools))
	}
	for _, tool := range tools {
		if tool.ReadOnly {
			t.Errorf("the page was told %s runs unasked", tool.Name)
		}
	}
}

// A call's answer carries the frames it took on the wire.
func TestCallFrames(t *testing.T) {
	srv, _ := startPage(t, false)
	u, _ := url.Parse(srv.URL())
	_, out := post(t, srv.URL()+"api/call", "http://"+u.Host, "application/json", `{"from":"person","name":"mcp__apps__clock","args":{"zone":"UTC"}}`)
	frames, _ := out["frames"].([]any)
	var sawCall, sawResult bool
	for _, f := range frames {
		text, _ := f.(map[string]any)["text"].(string)
		sawCall = sawCall || strings.Contains(text, `"tools/call"`) && strings.Contains(text, `"zone":"UTC"`)
		sawResult = sawResult || strings.Contains(text, "The time is")
	}
	if !sawCall || !sawResult {
		t.Errorf("frames %v lack the call or its result", frames)
	}
}
