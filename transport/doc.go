// Package transport moves whole JSON-RPC frames between an MCP client and a
// server, as the transports section of the MCP specification describes
// (https://modelcontextprotocol.io/specification/latest/basic/transports).
//
// A transport knows nothing of requests and responses: it reads a frame,
// writes a frame, and closes. Each one here implements [jsonrpc.Stream],
// and a jsonrpc.Conn on top of it matches responses to requests. So a new
// transport is small, and none of them can get correlation wrong.
//
// The happy path starts a server as a child process and hands the stream
// to a connection:
//
//	s, err := transport.StartStdio(transport.StdioConfig{
//		Command: "npx",
//		Args:    []string{"-y", "@modelcontextprotocol/server-everything"},
//		Logger:  logger, // optional; nil means silent
//	})
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	conn := jsonrpc.NewConn(s, nil) // see package jsonrpc
//
// # Stdio
//
// In the stdio transport the client runs the server as a subprocess. Frames
// travel as newline-delimited JSON: one message per line on the server's
// stdin and stdout, no embedded newlines. Stdout carries nothing else by
// the specification, but in practice servers print banners and log lines
// there, so [Stdio] reads it through a [LineReader] that skips any line
// that is not a JSON object or array, counts it, and reports it to the
// logger if one was given. Stderr is the server's log: it is drained as it
// comes (a server blocked on a full stderr pipe would stall), its tail is
// kept, and when the server exits, Read returns an [*ExitError] with the
// exit status and the last lines of stderr, which usually say what went
// wrong.
//
// The server runs with a small, safe environment unless
// StdioConfig.InheritEnv says otherwise, and it is never started through a
// shell: Command and Args reach the operating system as they are.
//
// # Shutdown
//
// [Stdio.Close] follows the specification: close the server's stdin, wait,
// send SIGTERM, wait, kill. The signals go to the server's process group,
// so that the real server behind a wrapper such as npx or uvx stops too.
// One delay, StdioConfig.CloseDelay, is used at each step, and Close never
// takes much longer than twice that. A Read that ends because of Close
// returns an error wrapping [jsonrpc.ErrClosed]: a clean end, not a failure
// to report.
//
// # Limits
//
// Lines are limited to [DefaultMaxLine] bytes unless configured otherwise; a
// longer line is read past without being kept, reported, and reading goes
// on. The stderr tail is bounded too. Nothing here logs unless it is given
// a *slog.Logger.
//
// # Streamable HTTP
//
// [HTTP] is the HTTP transport of 2025-03-26 and later. Every message is
// its own POST to the MCP endpoint; a request is answered with one JSON
// message or with an event stream that may carry the server's
// notifications and requests before the response, all of which Read
// hands on in order. [HTTP.SetProtocol], called by the session once the
// protocol is agreed, shapes what follows:
//
//   - Handshake era: the MCP-Protocol-Version header on every request, the
//     server's Mcp-Session-Id kept and sent back, a GET stream opened for
//     server-initiated messages (405 means the server has none), a stream
//     that breaks before its response resumed with GET and Last-Event-ID
//     after exactly the server's retry delay, a 404 on a live session
//     reported as [ErrSessionExpired], and the session DELETEd on Close.
//   - Stateless era (2026-07-28): no session and no GET stream;
//     Mcp-Method and Mcp-Name headers on every request (values outside
//     plain ASCII as "=?base64?…?="; see [EncodeHeaderValue]), extra
//     headers such as Mcp-Param-{Name} taken from the context
//     ([WithHeaders]); a stream that breaks is reported as an error
//     response with code [CodeResponseLost], so the request is sent again
//     under a new id; closing the stream is the cancellation.
//
// A non-2xx answer whose body holds a JSON-RPC error becomes that
// request's error response (modern servers answer 400 with -32022 and
// its list of versions); any other becomes an [HTTPError], which the
// session's era detection and the HTTP+SSE fallback look at. [HTTPConfig]
// holds the URL, headers, bearer token, client and authorization hook of
// both HTTP transports; credentials only ever go to the server's origin.
//
// # HTTP+SSE (2024-11-05)
//
// [DialSSE] speaks the HTTP transport of protocol version 2024-11-05, which
// many servers still offer: a GET opens an event stream whose first event,
// "endpoint", names the URL to POST our messages to, and the server's
// messages arrive as "message" events on that stream. The endpoint must
// have the same origin as the configured URL. The stream cannot be
// resumed: when it ends, [SSE.Read] fails and the session is over. A
// client tries this transport when the config says so, or when a server
// refuses a Streamable HTTP POST with 400, 404 or 405.
//
// # Server-Sent Events
//
// [SSEReader] reads a text/event-stream body exactly as the HTML standard
// specifies, for both HTTP transports: any line ending, comments, ids and
// retry fields, one event's data bounded by HTTPConfig.MaxMessage.
// [SSEReader.LastEventID] and [SSEReader.Retry] hold what a client needs
// to resume a stream.
//
// # Other streams
//
// [LineStream] is the same newline-delimited framing over any reader and
// writer; a server speaking stdio uses it on os.Stdin and os.Stdout. [Pipe]
// connects two streams in memory, for tests and for servers that run in the
// client's process. [Trace] wraps any stream and prints every frame that
// passes, as a CLI's --trace flag does.
package transport
