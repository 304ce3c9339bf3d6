package jsonrpc

import (
	"context"

	"github.com/plainmcp/plainmcp/internal/logging"
)

// Handler answers one request from the peer. Its result is marshalled to
// JSON (a json.RawMessage is sent as is); an error that is an *Error is sent
// with its code, any other error as an internal error (-32603) carrying its
// text. ctx ends when the peer cancels the request (see
// Conn.CancelPeerRequest) or the
// connection stops.
type Handler func(ctx context.Context, req *Request) (result any, err error)

// NotificationHandler receives the peer's notifications, one at a time, in
// the order they arrived. ctx ends when the connection stops.
type NotificationHandler func(ctx context.Context, req *Request)

// Options configures a Conn. A nil *Options is valid and means: answer every
// request with method-not-found, drop notifications, log nothing.
type Options struct {
	// Handler answers the peer's requests; each runs in its own goroutine so
	// a slow one never stalls responses to our calls. Nil answers -32601.
	Handler Handler

	// OnNotification receives the peer's notifications in arrival order on
	// a single goroutine. Nil drops them.
	OnNotification NotificationHandler

	// Intercept, if set, sees each notification on the read loop before it
	// is queued for OnNotification, and consumes it by returning true. It runs before
	// any later frame is read, so what it records is in place before a
	// response that followed the notification is delivered (MCP routes
	// progress this way). It must be quick and must never block or call the
	// Conn.
	Intercept func(n *Request) bool

	// OnAbandon is called when a Call returns because its context ended
	// before the response arrived — also while its frame was being
	// written, since part of it may have reached the peer — with the id
	// and method of the abandoned request. A protocol layer uses it to tell the peer (MCP sends
	// notifications/cancelled). It runs on the caller's goroutine and must
	// not block.
	OnAbandon func(id ID, method string)

	// Logger receives reports of frames that were dropped (not JSON-RPC,
	// unknown or duplicate response ids) and of handler panics. Nil is silent.
	// A *slog.Logger serves: any value with its Debug, Info, Warn and
	// Error methods does (internal/logging says why this is no *slog.Logger).
	Logger logging.Logger

	// MaxQueuedNotifications bounds the notifications waiting for
	// OnNotification (not counting the one it is handling), by count;
	// MaxQueuedNotificationBytes by what they keep in memory: the size of
	// their frames (of their params, for a batch's). Past either, new ones
	// are dropped and reported. Zero means 10000 and 64 MiB.
	MaxQueuedNotifications     int
	MaxQueuedNotificationBytes int

	// MaxPeerRequests bounds the peer's requests being handled at once;
	// past it a request is answered at once with an error, so that a
	// flood costs neither a goroutine each nor a stalled read loop. Zero
	// means 256 (a client of a server that asks little should set a few
	// dozen).
	MaxPeerRequests int
}

// orDefault returns v, or def when v is zero or negative.
func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
