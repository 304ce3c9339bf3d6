// Package streamhttp carries MCP over HTTP: the Streamable HTTP transport
// of 2025-03-26 and later, and the HTTP+SSE transport of 2024-11-05 for
// servers that predate it
// (https://modelcontextprotocol.io/specification/latest/basic/transports).
// [Dial] returns a [Stream], an ordinary jsonrpc.Stream, so a session runs
// over it exactly as over stdio:
//
//	stream, err := streamhttp.Dial(ctx, streamhttp.Config{
//		URL:         "https://example.com/mcp",
//		BearerToken: secret.New(token), // sent to this origin only, never printed
//	})
//	if err != nil {
//		return err
//	}
//	session, err := mcpclient.Connect(ctx, stream, nil)
//
// This package is the only one of plainmcp's transports that imports
// net/http; a program that never dials HTTP does not link it.
//
// # Streamable HTTP
//
// Every message is its own POST to the MCP endpoint; a request is answered
// with one JSON message or with an event stream that may carry the
// server's notifications and requests before the response. [Stream.Call]
// (the stream is a rpcwire.Caller, which jsonrpc.Conn uses) reads that
// answer on the calling goroutine and returns the response itself; what
// comes ahead of it, and then the response, Read hands on in order, as it
// does for answers to requests sent with Write. What the session agreed
// (transport.Protocol, through [Stream.SetProtocol]) shapes what follows:
//
//   - Handshake era: the MCP-Protocol-Version header on every request, the
//     server's Mcp-Session-Id kept and sent back, a GET stream opened for
//     server-initiated messages (405 means the server has none; none is
//     opened when Protocol.Quiet says nothing may come on it), a stream
//     that breaks before its response resumed with GET and Last-Event-ID
//     after exactly the server's retry delay, a 404 on a live session
//     reported as transport.ErrSessionExpired, and the session DELETEd on
//     Close.
//   - Stateless era (2026-07-28): no session and no GET stream; Mcp-Method
//     and Mcp-Name headers on every request, and the Mcp-Param-{Name}
//     headers a tool's schema asks for, from what the session attached to
//     the Write's context (values outside plain ASCII go as
//     "=?base64?…?="); a response stream that breaks is reported, beside
//     the frames, as a rpcwire.ResponseLostError, and the session sends the
//     request again under a new id; closing the stream is the
//     cancellation.
//
// A non-2xx answer whose body holds a JSON-RPC error becomes that
// request's error response (modern servers answer 400 with -32022 and
// their versions); any other becomes an [HTTPError], which matches
// transport.ErrRefused. A request's exchange is bounded by its caller's
// context; a notification's POST, a DELETE and connecting have bounds of
// their own.
//
// # HTTP+SSE (2024-11-05)
//
// The older transport: a GET opens an event stream whose first event,
// "endpoint", names the URL to POST our messages to, and the server's
// messages arrive as "message" events on that stream. The endpoint must
// have the same origin as the configured URL. The stream cannot be
// resumed: when it ends, the session is over. [Dial] speaks it when
// Config.Legacy says so, or on its own when the server refuses the first
// initialize POST with 400, 404 or 405, as the specification's
// backwards-compatibility section describes ([Stream.Legacy] tells).
//
// # Credentials
//
// [Config] holds the headers, bearer token, HTTP client and authorization
// hook of both transports. Credentials only ever go to the server's
// origin: a redirect of the MCP endpoint to another origin is refused, with
// an error naming that origin, and anything else bound elsewhere goes
// without the bearer token, the configured headers, the hook's headers,
// cookies, the session id or Mcp-Param headers. Header values are checked
// for line breaks; the URL's user info and query never appear in errors,
// and every configured secret is redacted from the error bodies quoted.
// The bearer token, the Authorization value and the header values are
// secret.Strings, so a Config prints, logs and marshals without them
// (its URL shown without user info or query).
//
// # Server-Sent Events
//
// Both transports read text/event-stream bodies exactly as the HTML
// standard specifies: any line ending, comments, ids and retry fields,
// one event's data bounded by Config.MaxMessage ([ErrEventTooLarge]).
package streamhttp
