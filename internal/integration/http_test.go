package integration

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// serveEverything runs server-everything as an HTTP server in mode
// ("streamableHttp" or "sse") on a free local port and returns its base URL.
func serveEverything(t *testing.T, mode string) string {
	t.Helper()
	entry := os.Getenv("PLAINMCP_EVERYTHING")
	if entry == "" {
		t.Skip("PLAINMCP_EVERYTHING not set: run `make integration`")
	}
	return serveNode(t, entry, "PORT", mode)
}

// serveNode runs a Node HTTP server (entry and args) on a free local port,
// named to it by the variable portVar, and returns its base URL once it
// listens.
func serveNode(t *testing.T, entry, portVar string, args ...string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("node", append([]string{entry}, args...)...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", portVar, port))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s %v did not listen on %s: %s", entry, args, addr, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func connectHTTP(t *testing.T, url string, h *hostRecorder) *mcpclient.Session {
	t.Helper()
	return connectHTTPWith(t, url, h.options())
}

func connectHTTPWith(t *testing.T, url string, opts *mcpclient.Options) *mcpclient.Session {
	t.Helper()
	s, _ := connectHTTPStream(t, url, opts)
	return s
}

// connectHTTPStream is connectHTTPWith that also returns the stream the
// session runs over.
func connectHTTPStream(t *testing.T, url string, opts *mcpclient.Options) (*mcpclient.Session, *streamhttp.Stream) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stream, err := streamhttp.Dial(ctx, streamhttp.Config{URL: url})
	if err != nil {
		t.Fatalf("Dial %s: %v", url, err)
	}
	s, err := mcpclient.Connect(ctx, stream, opts)
	if err != nil {
		t.Fatalf("Connect %s: %v", url, err)
	}
	t.Cleanup(func() { s.Close() })
	return s, stream
}

func TestIntegrationEverythingStreamableHTTP(t *testing.T) {
	h := &hostRecorder{}
	exerciseEverything(t, connectHTTP(t, serveEverything(t, "streamableHttp")+"/mcp", h), h)
}

// TestIntegrationEverythingSSE reaches the legacy HTTP+SSE endpoint: the
// Streamable HTTP POST of initialize is refused and the stream falls
// back.
func TestIntegrationEverythingSSE(t *testing.T) {
	h := &hostRecorder{}
	s, stream := connectHTTPStream(t, serveEverything(t, "sse")+"/sse", h.options())
	if !stream.Legacy() {
		t.Errorf("the stream speaks Streamable HTTP, not legacy HTTP+SSE")
	}
	exerciseEverything(t, s, h)
}
