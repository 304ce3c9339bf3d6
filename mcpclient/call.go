package mcpclient

import "context"

// A request travels one path, whatever its method and the era:
//
//	methods.go    CallTool, Tools, Call …  build a request (request.go):
//	                                          params encoded once
//	call.go       send                        progress for the whole call
//	wire.go       handshakeWire.roundTrip     the era's rules: a new session, or
//	stateless.go  statelessWire.roundTrip     metadata, input rounds, re-issues
//	exchange.go   exchange                    one request and its response:
//	                                          timeout, frame, decode
//	jsonrpc       Conn.Call                   the pending map and the stream;
//	                                          the params are written into the
//	                                          frame by request.AppendJSON

// Call sends any request and decodes its result into result (nil discards
// it; a *json.RawMessage keeps the exact bytes). It is the escape hatch for
// methods this package has no wrapper for; the request takes the same path
// as the wrapped ones: timeout, progress, cancellation, and in the
// stateless era the request metadata and input rounds. Params must encode
// to a JSON object (or be nil); a _meta, inputResponses or requestState in
// them goes out as given, with the session's metadata added to _meta.
func (s *Session) Call(ctx context.Context, method string, params, result any) error {
	r, err := newRequest(method, params, false)
	if err != nil {
		return err
	}
	defer r.release()
	return s.send(ctx, r, result)
}

// call is Call for this package's own params types.
func (s *Session) call(ctx context.Context, method string, params, result any) error {
	r, err := newRequest(method, params, true)
	if err != nil {
		return err
	}
	defer r.release()
	return s.send(ctx, r, result)
}

// send runs one request through to its final result. Progress, when ctx
// asks for it or the call is one to keep alive, spans the whole call: one
// token, every round.
func (s *Session) send(ctx context.Context, r *request, result any) error {
	onProgress, _ := ctx.Value(progressKey{}).(func(Progress))
	if onProgress == nil {
		if !s.keepAlive(ctx, r) {
			return s.wire.roundTrip(ctx, r, result)
		}
		s.watchProgress(r, nil)
		defer s.unwatchProgress(r.progress)
		return s.wire.roundTrip(ctx, r, result)
	}
	w := s.watchProgress(r, onProgress)
	defer s.unwatchProgress(r.progress)
	return w.callDelivering(func() error { return s.wire.roundTrip(ctx, r, result) })
}
