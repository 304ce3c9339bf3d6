package mcpclient

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/childexit"
)

// serverModeEnv selects a misbehaving stdio server when the test binary is
// re-executed as one (see TestMain). No binaries are built during tests.
const serverModeEnv = "PLAINMCP_TEST_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(serverModeEnv); mode != "" {
		childexit.Exit(rawServer(mode))
	}
	os.Exit(m.Run())
}

// rawServer is a tiny stdio MCP server written line by line, so that each
// mode can break the protocol in its own way.
func rawServer(mode string) int {
	switch mode {
	case "exit-before-init":
		fmt.Fprintln(os.Stderr, "fatal: config file /etc/demo.toml is missing")
		return 3
	case "sleep": // a grandchild that holds stdout
		time.Sleep(time.Hour)
		return 0
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
	case "bench": // fast answers for the benchmarks (bench_server_test.go)
		return benchServer(false)
	case "bench-stateless": // the same, in the stateless era
		return benchServer(true)
	case "mem-client": // not a server: a client whose memory is measured (bench_mem_test.go)
		return memClient(os.Args[1:])
	}
	out := bufio.NewWriter(os.Stdout)
	send := func(s string) { out.WriteString(s + "\n"); out.Flush() }
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	if mode == "banners" {
		send("Welcome to the demo server v1.2!")
		send("")
		send("[info] listening on stdio")
	}
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			if mode == "ignore-term" || mode == "child-holds-stdout" {
				time.Sleep(time.Hour) // ignore stdin EOF too
			}
			return 0
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(line, &req) != nil || req.ID == nil {
			continue // notifications and responses
		}
		id := string(req.ID)
		result := func(r string) string { return `{"jsonrpc":"2.0","id":` + id + `,"result":` + r + `}` }
		switch req.Method {
		case "initialize":
			if mode == "child-holds-stdout" {
				// The child and its pid file come before the answer:
				// once connected, the test may close at once.
				child := exec.Command(os.Args[0])
				child.Env = append(os.Environ(), serverModeEnv+"=sleep")
				child.Stdout = os.Stdout
				child.Start()
				os.WriteFile(os.Getenv("PLAINMCP_TEST_PIDFILE"), []byte(fmt.Sprint(child.Process.Pid)), 0o600)
			}
			send(result(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw-` + mode + `","version":"0"}}`))
			if mode == "unknown-request" {
				send(`{"jsonrpc":"2.0","id":"srv-1","method":"frobnicate/now","params":{}}`)
			}
			continue
		case "tools/call":
		default:
			send(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32601,"message":"no"}}`)
			continue
		}
		text := func(s string) string { return result(`{"content":[{"type":"text","text":"` + s + `"}]}`) }
		switch mode {
		case "die-during-call":
			fmt.Fprintln(os.Stderr, "panic: runtime error: index out of range")
			return 2
		case "never-answer", "ignore-term", "child-holds-stdout":
		case "banners":
			send("[debug] handling tools/call")
			send("Progress: 50%")
			send(text("ok despite the noise"))
		case "flood-stderr":
			chunk := strings.Repeat("log line that nobody reads\n", 1000)
			for range 400 { // ~10 MiB
				os.Stderr.WriteString(chunk)
			}
			send(text("ok after the flood"))
		case "huge-line":
			send(text(strings.Repeat("x", hugeText)))
		case "deep": // ten times the depth jsonrpc or encoding/json decodes
			send(result(`{"content":` + strings.Repeat("[", 1e5) + strings.Repeat("]", 1e5) + `}`))
		case "malformed":
			send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[`) // truncated
			send(`{"jsonrpc":"2.0","id":` + id + `,"result":`)
			send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"wrong"}]},}`)
			send(`{"jsonrpc":"2.0","id":999999,"result":{"content":[]}}`) // unknown id
			send(`{"jsonrpc":"1.0","id":999998,"result":{"content":[]}}`) // bad, and for no call of ours
			send(`[1,2`)
			send(text("the real answer"))
			send(text("a duplicate"))
		case "unknown-request":
			send(text("asked"))
		}
	}
}
