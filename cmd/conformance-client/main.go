// Command conformance-client is the program the official MCP conformance
// suite (@modelcontextprotocol/conformance) drives: the suite starts a mock
// server for one scenario and runs
//
//	conformance-client <server-url>
//
// with MCP_CONFORMANCE_SCENARIO naming the scenario (and, for some,
// MCP_CONFORMANCE_CONTEXT holding JSON data and
// MCP_CONFORMANCE_PROTOCOL_VERSION the spec version under test). The client
// does what the scenario asks through plainmcp's public API only — if a
// scenario needed a hack, the API would be missing something — and exits 0
// when it could, 1 with a one-line reason when it could not.
//
// See conformance/README.md for how the suite is run and scored.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: conformance-client <server-url> (MCP_CONFORMANCE_SCENARIO names the scenario)")
		os.Exit(2)
	}
	sc := scenarioEnv{
		url:     os.Args[len(os.Args)-1],
		name:    os.Getenv("MCP_CONFORMANCE_SCENARIO"),
		version: os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"),
	}
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &sc.context); err != nil {
			fail(fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err))
		}
	}
	if os.Getenv("PLAINMCP_DEBUG") != "" {
		sc.logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	run, ok := scenarios[sc.name]
	if !ok {
		fail(fmt.Errorf("scenario %q is not supported by plainmcp yet", sc.name))
	}
	// The suite gives a client 30 seconds; finish well before.
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := run(ctx, &sc); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "conformance-client: %v\n", err)
	os.Exit(1)
}

// scenarioEnv is what the suite hands the client.
type scenarioEnv struct {
	url, name, version string
	context            map[string]json.RawMessage
	logger             *slog.Logger
	// authorize, when set, is the HTTP transport's authorization hook.
	authorize func(http.RoundTripper) http.RoundTripper
}

// connect opens a session to the mock server with opts (nil is fine).
func (sc *scenarioEnv) connect(ctx context.Context, opts *mcpclient.Options) (*mcpclient.Session, error) {
	if opts == nil {
		opts = &mcpclient.Options{}
	}
	opts.ClientInfo = mcpclient.Implementation{Name: "plainmcp-conformance-client", Version: "0.1.0"}
	opts.Logger = sc.logger
	stream, err := streamhttp.Dial(ctx, streamhttp.Config{URL: sc.url, Logger: sc.logger, Authorize: sc.authorize})
	if err != nil {
		return nil, err
	}
	return mcpclient.Connect(ctx, stream, opts)
}
