package streamhttp

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The era probe is server/discover, sent on the stateless wire before
// the session knows the server's era (see package mcpclient). A server of
// the handshake era that does not know the method may hold an event
// stream open without ever answering it; the session's probe timeout
// (5 s) would then pass before it falls back to initialize. Two signs cut
// that short when the answer is such a stream:
//
//   - the response carries an Mcp-Session-Id: the stateless era has no
//     sessions, so the server speaks the handshake era, and the answer is
//     refused at once;
//   - the stream brings no answer within probeQuiet of opening: a modern
//     server answers server/discover from what it knows, at once, so a
//     server that has opened its stream and says nothing is not answering.
//
// Either way the call fails with a jsonrpc.BadResponseError, which era
// detection takes for a server that is not modern.

// probeQuiet bounds how long the event stream that answers the era probe
// may stay open without the answer.
const probeQuiet = time.Second

// isProbe reports whether a request for method is the era probe.
func (h *streamable) isProbe(method string) bool {
	return method == "server/discover" && h.stateless()
}

// handshakeSession is why an answer to the probe that carries a session
// id is refused.
const handshakeSession = "server/discover was answered with an Mcp-Session-Id: the server speaks the handshake era"

// probeQuietReason is why a quiet answer to the probe is refused.
var probeQuietReason = "the event stream that answers server/discover brought no answer within " + probeQuiet.String()

// watchProbe judges the event stream that answers m, if m is the era
// probe, before the background path follows it (see postRequest). It
// reports whether the answer was refused at once; otherwise stop ends the
// watch once the stream is done with.
func (h *streamable) watchProbe(resp *http.Response, m *outgoing, answered *atomic.Bool, cancel context.CancelFunc) (stop func(), refused bool) {
	if !h.isProbe(m.method) {
		return func() {}, false
	}
	if resp.Header.Get("Mcp-Session-Id") != "" {
		closeShort(resp)
		h.badAnswer(m.id, handshakeSession)
		return nil, true
	}
	t := time.AfterFunc(probeQuiet, func() {
		if !answered.Load() {
			h.badAnswer(m.id, probeQuietReason)
			cancel()
		}
	})
	return func() { t.Stop() }, false
}

// followProbe is followDirect for the event stream that answers the era
// probe: refused at once with a session id, and cut off if it brings no
// answer within probeQuiet.
func (h *streamable) followProbe(ctx context.Context, x exchange, resp *http.Response, id jsonrpc.ID) ([]byte, error) {
	if resp.Header.Get("Mcp-Session-Id") != "" {
		closeShort(resp)
		x.end()
		return nil, h.unusable(id, handshakeSession)
	}
	var quiet atomic.Bool
	t := time.AfterFunc(probeQuiet, func() {
		quiet.Store(true)
		resp.Body.Close() // the read in followDirect ends
	})
	answer, err := h.followDirect(ctx, x, resp.Body, id)
	t.Stop()
	if err != nil && quiet.Load() && ctx.Err() == nil {
		return nil, h.unusable(id, probeQuietReason)
	}
	return answer, err
}
