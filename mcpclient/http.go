package mcpclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/transport"
)

// ConnectHTTP connects to an MCP server over HTTP. It tries the Streamable
// HTTP transport and, when the server refuses that first POST with 400, 404
// or 405, falls back to the legacy HTTP+SSE transport of 2024-11-05 at the
// same URL, as the specification's backwards-compatibility section
// describes. ctx bounds connecting and the handshake only.
func ConnectHTTP(ctx context.Context, cfg transport.HTTPConfig, opts *Options) (*Session, error) {
	h, err := transport.NewHTTP(cfg)
	if err != nil {
		return nil, err
	}
	s, err := Connect(ctx, h, opts)
	if err == nil {
		return s, nil
	}
	var he *transport.HTTPError
	if !errors.As(err, &he) || (he.StatusCode != 400 && he.StatusCode != 404 && he.StatusCode != 405) {
		return nil, err
	}
	sse, sseErr := transport.DialSSE(ctx, cfg)
	if sseErr != nil {
		return nil, fmt.Errorf("%w (the legacy HTTP+SSE transport did not answer either: %v)", err, sseErr)
	}
	return Connect(ctx, sse, opts)
}
