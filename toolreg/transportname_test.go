package toolreg

import (
	"context"
	"testing"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// legacyStream says it fell back to HTTP+SSE, as a *streamhttp.Stream
// does when a server refuses Streamable HTTP.
type legacyStream struct{ jsonrpc.Stream }

func (legacyStream) Legacy() bool { return true }

// An http server that turned out to speak only the legacy transport shows
// as "sse": the status names the stream the session took, not the config's
// type, and a host's WrapStream still sees that stream.
func TestStatusNamesTheTransportTheSessionTook(t *testing.T) {
	m := &inMemory{}
	t.Cleanup(m.WG.Wait) // after the registry's Close
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		client, server := transport.Pipe()
		srv := demoserver.New(&demoserver.Options{Name: sc.Name})
		m.WG.Add(1)
		go func() {
			defer m.WG.Done()
			srv.Serve(context.Background(), server)
		}()
		return mcpclient.Connect(ctx, legacyStream{client}, opts)
	}
	var wrapped []string
	wrap := func(server string, st jsonrpc.Stream) jsonrpc.Stream {
		if _, ok := st.(legacyStream); ok {
			wrapped = append(wrapped, server)
		}
		return st
	}
	r := newRegistry(t, &Options{Dial: dial, WrapStream: wrap}, &ServerConfig{Name: "old", Type: "http", URL: "http://127.0.0.1:9/mcp"})
	st := r.Servers()[0]
	if st.State != StateConnected || st.Transport != "sse" {
		t.Errorf("got state %q over %q, want connected over sse", st.State, st.Transport)
	}
	if len(wrapped) != 1 || wrapped[0] != "old" {
		t.Errorf("WrapStream saw the legacy stream of %v, want [old]", wrapped)
	}
}
