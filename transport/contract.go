package transport

import "errors"

// This file is the part of the stream contract that goes beyond moving
// frames: the few things an MCP session must learn from a transport, or
// tell it, whatever the transport is. They are plain values here, in the
// net-free core, so that the session (package mcpclient) never depends on
// the HTTP transports, and a program that only spawns stdio servers links
// no network code. Streams that have no use for one of them ignore it.
//
// What a transport reports:
//
//   - [ErrSessionExpired], wrapped by Write's error: the server ended the
//     session the stream carried (HTTP: 404 to a request with a session
//     id). The session initializes anew and sends the request again, once.
//   - [ErrRefused], matched by Write's error: the server turned the
//     message away without any JSON-RPC answer (HTTP: an error status
//     whose body holds no JSON-RPC error). Era detection takes a refused
//     server/discover for a server of the handshake era.
//   - [rpcwire.ResponseLostError], returned by Read: the response to one
//     request can no longer arrive (its HTTP response stream broke and
//     could not be resumed). It is a value no frame from the server can
//     forge; jsonrpc.Conn fails that one call with it and reads on.
//
// What a session tells a transport:
//
//   - [Protocol], through [ProtocolSetter]: the version agreed and the era.
//   - what each request names, through the context of a Write (package
//     internal/reqinfo, out of the public API): what the HTTP wire of
//     2026-07-28 mirrors into headers (Mcp-Name, Mcp-Param-{Name}), so the
//     transport need not decode the params.

// ErrSessionExpired is wrapped by a Write's error when the server ended
// the session: the request was not processed, and the client must start a
// new session before sending it again. The transport has already
// forgotten the old session.
var ErrSessionExpired = errors.New("transport: the server ended the session")

// ErrRefused is matched (errors.Is) by a Write's error when the server
// refused the message without answering it in JSON-RPC: an HTTP status
// with no JSON-RPC error in its body, say. The request was not processed.
var ErrRefused = errors.New("transport: the server refused the message")

// Protocol is what a session agreed with its server. A session hands it to
// its stream, if the stream implements ProtocolSetter, whenever it changes:
// after the handshake, after server/discover, and with the zero value
// before falling back to the handshake.
type Protocol struct {
	// Version is the protocol version agreed, "" before there is one.
	Version string
	// Stateless selects the wire of 2026-07-28: no session, every request
	// self-contained.
	Stateless bool
	// Quiet says, in the handshake era, that nothing may come from the
	// server outside its answers: it declared nothing it would send (no
	// listChanged, subscribe, logging or tasks) and the client nothing it
	// would answer (no sampling, elicitation or roots). An HTTP transport
	// then opens no stream for server-initiated messages.
	Quiet bool
}

// ProtocolSetter is implemented by streams that shape their messages by
// the agreed protocol (the HTTP transports send the version in a header,
// and keep a session only in the handshake era). A wrapping stream such
// as Trace passes the call on. SetProtocol may block briefly (an HTTP
// transport opens its stream for server-initiated messages) and is safe
// for concurrent use.
type ProtocolSetter interface {
	SetProtocol(Protocol)
}
