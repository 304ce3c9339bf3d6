package mcpclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// A wire is how one era of the protocol carries a request to its final
// result. Connect chooses it once it knows the era; every request then
// goes through it, so no method needs to ask which era it is in.
type wire interface {
	// roundTrip sends r, as many times as the era's rules say, and
	// decodes the final result into result.
	roundTrip(ctx context.Context, r *request, result any) error
}

// handshakeWire is the wire of 2024-11-05 … 2025-11-25: a request goes
// out as it is. If the HTTP transport reports that the server ended the
// session, a new one is initialized and the request sent again, once: it
// never reached a live session, so it cannot run twice.
type handshakeWire struct{ s *Session }

func (w handshakeWire) roundTrip(ctx context.Context, r *request, result any) error {
	gen := w.s.sessionGen.Load()
	_, _, err := w.s.exchange(ctx, r, nil, result)
	if errors.Is(err, transport.ErrSessionExpired) && r.method != methodInitialize {
		if rerr := w.s.reinitialize(ctx, gen); rerr != nil {
			return fmt.Errorf("%w; starting a new session: %w", err, rerr) // err names the method
		}
		_, _, err = w.s.exchange(ctx, r, nil, result)
	}
	if errors.Is(err, jsonrpc.ErrResponseLost) {
		// In this era the transport resumes a broken stream itself; if it
		// could not, the request may have run, and only the caller knows
		// whether running it again is safe.
		return fmt.Errorf("mcpclient: %w", err) // err names the method
	}
	return err
}
