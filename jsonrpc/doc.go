// Package jsonrpc implements JSON-RPC 2.0 (https://www.jsonrpc.org/specification),
// the message layer under the Model Context Protocol
// (https://modelcontextprotocol.io/specification/2025-11-25/basic). It knows
// nothing about MCP: it moves requests, notifications and responses over a
// [Stream] of frames and pairs each response with the call that waits for
// it.
//
// The happy path:
//
//	conn := jsonrpc.NewConn(stream, &jsonrpc.Options{
//		Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
//			return map[string]string{"pong": req.Method}, nil
//		},
//	})
//	defer conn.Close()
//	var result struct{ Sum int }
//	err := conn.Call(ctx, "add", map[string]int{"a": 1, "b": 2}, &result)
//
// # Messages
//
// A request has a method, params and an [ID]; the peer must answer it with
// a response carrying the same id and either a result or an [Error]. A
// notification is a request without an id: nobody answers it. An ID is a
// number or a string, chosen by the sender; [ID] keeps which it was so the
// answer echoes it exactly. Every frame must say "jsonrpc":"2.0".
//
// Params and results stay the raw bytes the peer sent until whoever knows
// the Go type decodes them, once. The machinery that makes this path fast
// (the one-pass decoder, the appenders that write frames without
// reflection, the frame pools) is no part of this API: it lives in an
// internal package that the transports and mcpclient share.
//
// # Calls and the pending map
//
// [Conn.Call] takes the next id from a counter, registers a 1-buffered
// channel under it in the pending map — before writing, because the answer
// may arrive before Write returns — writes the request and waits. The read
// loop, the only reader of the stream, looks each response's id up, removes
// the entry and hands the message over; an id nobody waits for (unknown, or
// answered twice) is reported to the logger and dropped. Every way out of
// Call removes the entry, so an abandoned call leaves nothing behind.
//
// A Stream that knows which answer belongs to which request (an HTTP POST
// is answered on its own response) may also be a caller (an internal
// interface the Streamable HTTP transport implements): then the
// calling goroutine sends the request and reads its answer itself, and
// the read loop keeps only what is unsolicited — the peer's requests and
// notifications, and any messages that came ahead of a response, which
// the Caller leaves, with the response, to Read so that they arrive in
// order. Such a stream is usually a read notifier too: the Conn starts
// its read loop only when the stream first has something unsolicited, so
// a session that only calls costs no goroutine. call.go's route map
// follows each path.
//
// When the stream ends, every waiting call fails at once with an error
// wrapping [ErrDisconnected] and the stream's own reason (for a stdio server,
// its exit status and stderr). After [Conn.Close] they fail with [ErrClosed].
//
// # The peer's requests and notifications
//
// Requests from the peer go to [Options].Handler, each in its own goroutine,
// so a slow one (a sampling request may wait a minute for a model) never
// holds up responses. A handler's error is sent as an error response: an
// *[Error] with its code, anything else as an internal error; a handler
// that panics is answered with -32603 and the connection lives on. Without
// a handler every request is answered with method-not-found (-32601).
// [Conn.CancelPeerRequest] ends a running handler's context when the peer
// cancels the request.
//
// Notifications go to [Options].OnNotification one at a time, in the order they
// arrived, on a goroutine of their own. [Options].Intercept sees them first,
// on the read loop, for the few that must take effect before any later
// frame. [Conn.Close] delivers those that came before it before it
// returns, waiting a moment at most for a slow OnNotification; what is
// left undelivered after that moment is dropped.
//
// # Batches
//
// A frame may be a JSON array of messages (a batch). Received batches are
// handled element by element and the answers to their requests go back
// together as one array. A Conn never sends a batch.
//
// # Errors
//
// [Error] is the wire error object, its [Code] typed. Its Is method
// compares codes, so errors.Is(err, jsonrpc.ErrMethodNotFound) holds for
// any method-not-found answer. A response its stream reported lost
// matches [ErrResponseLost]. The codes MCP adds to JSON-RPC's (-32002, -32042, -32020, -32021,
// -32022, -1) are MCP's business and are named in mcpclient, not here.
package jsonrpc
