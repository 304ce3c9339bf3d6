// Package browsertest drives a real headless Chromium from Go tests over
// WebDriver (chromedriver, plain HTTP and JSON on loopback), with the
// standard library alone. Start skips the test when chromium or
// chromedriver is missing, unless PLAINMCP_BROWSER=required (CI), which
// makes their absence a failure.
package browsertest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Browser is one WebDriver session.
type Browser struct {
	t    testing.TB
	base string // http://127.0.0.1:port/session/<id>
}

func find(names ...string) string {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// Start runs chromedriver and opens a headless Chromium session, both
// ended when the test ends.
func Start(t testing.TB) *Browser {
	t.Helper()
	chromium, driver := find("chromium", "chromium-browser", "google-chrome"), find("chromedriver")
	if chromium == "" || driver == "" {
		if os.Getenv("PLAINMCP_BROWSER") == "required" {
			t.Fatal("chromium and chromedriver are required (PLAINMCP_BROWSER=required)")
		}
		t.Skip("chromium or chromedriver not installed (apt-get install chromium chromium-driver)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(driver, fmt.Sprintf("--port=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	root := fmt.Sprintf("http://127.0.0.1:%d", port)
	b := &Browser{t: t}
	deadline := time.Now().Add(20 * time.Second)
	for {
		var st struct {
			Ready bool `json:"ready"`
		}
		if err := b.do("GET", root+"/status", nil, &st); err == nil && st.Ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("chromedriver did not start")
		}
		time.Sleep(100 * time.Millisecond)
	}
	caps := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"browserName":       "chrome",
		"goog:loggingPrefs": map[string]string{"browser": "ALL"},
		"goog:chromeOptions": map[string]any{"binary": chromium, "args": []string{
			"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--disable-dev-shm-usage", "--window-size=1200,900", "--user-data-dir=" + t.TempDir(),
		}},
	}}}
	var sess struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.do("POST", root+"/session", caps, &sess); err != nil {
		t.Fatalf("new session: %v", err)
	}
	b.base = root + "/session/" + sess.SessionID
	t.Cleanup(func() { b.do("DELETE", b.base, nil, nil) })
	return b
}

// do sends one WebDriver command and decodes its value into out.
func (b *Browser) do(method, url string, body, out any) error {
	var rd *bytes.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	} else if method == "POST" {
		rd = bytes.NewReader([]byte("{}"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var req *http.Request
	var err error
	if rd != nil {
		req, err = http.NewRequestWithContext(ctx, method, url, rd)
		req.Header.Set("Content-Type", "application/json")
	} else {
		req, err = http.NewRequestWithContext(ctx, method, url, nil)
	}
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var env struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return fmt.Errorf("%s %s: HTTP %d: %w", method, url, resp.StatusCode, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: HTTP %d: %s", method, url, resp.StatusCode, env.Value)
	}
	if out != nil {
		return json.Unmarshal(env.Value, out)
	}
	return nil
}

// Cmd runs a session command, failing the test on error.
func (b *Browser) Cmd(method, path string, body, out any) {
	b.t.Helper()
	if err := b.do(method, b.base+path, body, out); err != nil {
		b.t.Fatal(err)
	}
}

// Go navigates to url.
func (b *Browser) Go(url string) {
	b.t.Helper()
	b.Cmd("POST", "/url", map[string]string{"url": url}, nil)
}

// Eval runs script (a function body; arguments[0…]) in the current frame
// and decodes what it returns into out.
func (b *Browser) Eval(script string, out any, args ...any) error {
	if args == nil {
		args = []any{}
	}
	return b.do("POST", b.base+"/execute/sync", map[string]any{"script": script, "args": args}, out)
}

// Wait evaluates script until it returns a non-empty string, and returns
// that string; it fails the test after timeout.
func (b *Browser) Wait(what, script string, timeout time.Duration) string {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		var s string
		if err := b.Eval(script, &s); err == nil && s != "" {
			return s
		} else {
			last = err
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Fatalf("waiting for %s: timed out (last error: %v)", what, last)
	return ""
}

// Frame switches into the iframe that css selects in the current frame;
// Top goes back to the page.
func (b *Browser) Frame(css string) {
	b.t.Helper()
	var el map[string]string
	deadline := time.Now().Add(20 * time.Second)
	for {
		err := b.do("POST", b.base+"/element", map[string]string{"using": "css selector", "value": css}, &el)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("no frame %s: %v", css, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.Cmd("POST", "/frame", map[string]any{"id": el}, nil)
}

// Top switches back to the top-level page.
func (b *Browser) Top() { b.t.Helper(); b.Cmd("POST", "/frame", map[string]any{"id": nil}, nil) }

// Click clicks the element css selects in the current frame.
func (b *Browser) Click(css string) {
	b.t.Helper()
	var el map[string]string
	b.Cmd("POST", "/element", map[string]string{"using": "css selector", "value": css}, &el)
	for _, id := range el {
		b.Cmd("POST", "/element/"+id+"/click", nil, nil)
		return
	}
}

// Type types text into the element css selects in the current frame, as
// a person's keys would: the page sees its input events.
func (b *Browser) Type(css, text string) {
	b.t.Helper()
	var el map[string]string
	b.Cmd("POST", "/element", map[string]string{"using": "css selector", "value": css}, &el)
	for _, id := range el {
		b.Cmd("POST", "/element/"+id+"/value", map[string]string{"text": text}, nil)
		return
	}
}

// Screenshot saves a PNG of the page to path.
func (b *Browser) Screenshot(path string) {
	b.t.Helper()
	var s string
	b.Cmd("GET", "/screenshot", nil, &s)
	png, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// Text returns the textContent of the element css selects in the current
// frame ("" if there is none).
func (b *Browser) Text(css string) string {
	var s string
	b.Eval(`const e = document.querySelector(arguments[0]); return e ? e.textContent : "";`, &s, css)
	return strings.TrimSpace(s)
}

// Console returns what the page and its frames logged to the console
// since the last call (chromedriver's log endpoint), one entry a line.
func (b *Browser) Console() string {
	var entries []struct {
		Level   string `json:"level"`
		Message string `json:"message"`
	}
	if err := b.do("POST", b.base+"/se/log", map[string]string{"type": "browser"}, &entries); err != nil {
		return "console: " + err.Error()
	}
	var out strings.Builder
	for _, e := range entries {
		out.WriteString(e.Level + " " + e.Message + "\n")
	}
	return out.String()
}
