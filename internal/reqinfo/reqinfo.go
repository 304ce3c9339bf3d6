// Package reqinfo carries what a session tells a transport about one
// request beyond its frame: what the HTTP wire of 2026-07-28 mirrors into
// headers (Mcp-Name, Mcp-Param-{Name}), so the transport need not decode
// the params. mcpclient attaches it to a Write's context and
// transport/streamhttp reads it there; it is a plain value in a net-free
// leaf, out of the public API, so that the session never depends on a
// network transport.
package reqinfo

import "context"

// Info describes one request beyond its frame, for transports that carry
// metadata outside the message (HTTP headers). Method must equal the
// frame's method, or the transport ignores the info: a context passed down
// to a nested request must not lend it another request's name. A session
// attaches it only for streams that implement transport.ProtocolSetter,
// the ones that shape messages by the protocol; others never see it. An
// Info is not changed once attached, so any goroutine may read it.
type Info struct {
	Method string
	// Name is what identifies the target: params.name of tools/call and
	// prompts/get, params.uri of resources/read (HTTP: Mcp-Name).
	Name string
	// Headers are extra name → value pairs, such as the Mcp-Param-Region
	// header a tool's input schema asks for. Values are plain text; the
	// transport encodes what its wire cannot carry as is.
	Headers map[string]string
}

type key struct{}

// With returns a context whose Write of the request info.Method carries
// info.
func With(ctx context.Context, info *Info) context.Context {
	return context.WithValue(ctx, key{}, info)
}

// From returns the info a Write's context carries for method, or nil.
func From(ctx context.Context, method string) *Info {
	info, _ := ctx.Value(key{}).(*Info)
	if info == nil || info.Method != method {
		return nil
	}
	return info
}
