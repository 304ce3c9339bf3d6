//go:build go1.25

package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// probeRefusals are the ways 2025-era servers answer a server/discover
// they do not know, over Streamable HTTP; each must leave the session in
// the handshake era, at once or within the probe's bound (wait).
var probeRefusals = []struct {
	name   string
	refuse func(w http.ResponseWriter, r *http.Request, m *rpcwire.Message)
	wait   time.Duration
}{
	{"400", status(http.StatusBadRequest, "Bad Request: No valid session ID provided"), 0},
	{"404", status(http.StatusNotFound, "not found"), 0},
	{"405", status(http.StatusMethodNotAllowed, ""), 0},
	{"-32000 in a 400", rpcError(http.StatusBadRequest, -32000, "Bad Request: Server not initialized"), 0},
	{"-32600", rpcError(http.StatusOK, rpcwire.CodeInvalidRequest, "Invalid Request"), 0},
	{"-32601", rpcError(http.StatusOK, rpcwire.CodeMethodNotFound, "Method not found"), 0},
	{"-32602", rpcError(http.StatusOK, rpcwire.CodeInvalidParams, "Invalid params"), 0},
	{"-32600 on an event stream", sseError(rpcwire.CodeInvalidRequest), 0},
	{"a stream that ends unanswered", openStream(false, ""), 0},
	{"a stream that never ends", openStream(true, ""), time.Second},
	{"a stream that never ends, with a session", openStream(true, "s-1"), 0},
}

func status(code int, body string) func(http.ResponseWriter, *http.Request, *rpcwire.Message) {
	return func(w http.ResponseWriter, _ *http.Request, _ *rpcwire.Message) { http.Error(w, body, code) }
}

func rpcError(code int, rpc rpcwire.Code, msg string) func(http.ResponseWriter, *http.Request, *rpcwire.Message) {
	return func(w http.ResponseWriter, _ *http.Request, m *rpcwire.Message) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		w.Write(rpcwire.AppendError(nil, m.ID, jsonrpc.NewError(rpc, "%s", msg)))
	}
}

func sseError(rpc rpcwire.Code) func(http.ResponseWriter, *http.Request, *rpcwire.Message) {
	return func(w http.ResponseWriter, _ *http.Request, m *rpcwire.Message) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: message\ndata: %s\n\n", rpcwire.AppendError(nil, m.ID, jsonrpc.NewError(rpc, "no")))
	}
}

// openStream opens an event stream with a priming event and no answer;
// forever, until the client goes, if hold.
func openStream(hold bool, session string) func(http.ResponseWriter, *http.Request, *rpcwire.Message) {
	return func(w http.ResponseWriter, r *http.Request, _ *rpcwire.Message) {
		if session != "" {
			w.Header().Set("Mcp-Session-Id", session)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "id: 1\ndata: \n\n")
		w.(http.Flusher).Flush()
		if hold {
			<-r.Context().Done()
		}
	}
}

// handshakeHTTP is a 2025-06-18 server that refuses server/discover with
// refuse and otherwise answers initialize and tools/list.
func handshakeHTTP(refuse func(http.ResponseWriter, *http.Request, *rpcwire.Message)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		m, err := rpcwire.Decode(body)
		switch {
		case err != nil:
			http.Error(w, err.Error(), http.StatusBadRequest)
		case !m.IsRequest():
			w.WriteHeader(http.StatusAccepted)
		case m.Method == "server/discover":
			refuse(w, r, m)
		case m.Method == "initialize":
			w.Header().Set("Mcp-Session-Id", "s-2")
			answerJSON(w, m, `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"h","version":"1"}}`)
		default:
			answerJSON(w, m, `{"tools":[{"name":"t","inputSchema":{}}]}`)
		}
	})
}

// TestHTTPProbeRefusalsFallBack: every refusal of the probe leaves a
// working handshake-era session, in the time the table says.
// A wrapped stream (a trace, say) hides the transport's direct path: the
// answer then takes the background one, which must judge it alike.
func TestHTTPProbeRefusalsFallBack(t *testing.T) {
	for _, wrapped := range []bool{false, true} {
		for _, tc := range probeRefusals {
			t.Run(fmt.Sprintf("%s/wrapped=%v", tc.name, wrapped), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { probeFallsBack(t, tc.refuse, tc.wait, wrapped) })
			})
		}
	}
}

// hidden is a stream with only the methods of jsonrpc.Stream.
type hidden struct{ jsonrpc.Stream }

func probeFallsBack(t *testing.T, refuse func(http.ResponseWriter, *http.Request, *rpcwire.Message), wait time.Duration, wrapped bool) {
	client := &http.Client{Transport: pipeRoundTripper{handshakeHTTP(refuse)}}
	ctx := context.Background()
	stream, err := streamhttp.Dial(ctx, streamhttp.Config{URL: "http://127.0.0.1:9/mcp", Client: client})
	if err != nil {
		t.Fatal(err)
	}
	opts := &Options{}
	if wrapped {
		opts.WrapStream = func(s jsonrpc.Stream) jsonrpc.Stream { return hidden{s} }
	}
	start := time.Now()
	s, err := Connect(ctx, stream, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer s.Close()
	if took := time.Since(start); s.Era() != EraHandshake || s.ProtocolVersion() != "2025-06-18" || took != wait {
		t.Errorf("era %v, version %s after %v; want the handshake era, 2025-06-18, after %v", s.Era(), s.ProtocolVersion(), took, wait)
	}
	if _, err := s.listTools(ctx, ""); err != nil {
		t.Errorf("ListTools: %v", err)
	}
}

// TestHTTPProbeAnsweredOnAStream: a modern server that answers the probe
// on an event stream, within the quiet bound, is taken for modern.
func TestHTTPProbeAnsweredOnAStream(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		modern := func(w http.ResponseWriter, _ *http.Request, m *rpcwire.Message) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "id: 1\ndata: \n\n")
			w.(http.Flusher).Flush()
			time.Sleep(900 * time.Millisecond)
			var one bytes.Buffer // an event's data is one line
			json.Compact(&one, rpcwire.AppendResult(nil, m.ID, json.RawMessage(discoverOK)))
			fmt.Fprintf(w, "event: message\ndata: %s\n\n", one.Bytes())
		}
		client := &http.Client{Transport: pipeRoundTripper{handshakeHTTP(modern)}}
		stream, err := streamhttp.Dial(context.Background(), streamhttp.Config{URL: "http://127.0.0.1:9/mcp", Client: client})
		if err != nil {
			t.Fatal(err)
		}
		s, err := Connect(context.Background(), stream, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if s.Era() != EraStateless {
			t.Errorf("era %v, want stateless", s.Era())
		}
	})
}
