package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// How a response finds its call — the route map:
//
//   - Over most streams (stdio, pipes): call registers a 1-buffered channel
//     under the id in the pending map, then Writes the frame. The read loop,
//     the stream's only reader, Decodes each frame, and deliver takes the
//     id out of pending and sends the message on the channel.
//   - Over a Caller (Streamable HTTP: each POST is answered on its own
//     response): call registers just the same, then hands the frame to
//     Caller.Call, which returns the answer on the calling goroutine;
//     direct checks it (a response, with this id) and the call completes
//     without the read loop, the map lookup or the channel.
//   - When messages came ahead of the response on that answer (progress,
//     the peer's requests), the Caller sends them and the response through
//     Read instead and returns nil: they reach the read loop in order, and
//     the response comes through deliver as on any stream. That is why the
//     entry is registered even for a Caller.
//   - A Caller that is also a ReadNotifier (Streamable HTTP again) tells
//     the Conn when Read first has something; until then no read loop
//     runs, so a session whose answers all come back through Call never
//     starts one.
//   - A failure of one call that the stream reports (a lost or unusable
//     answer) comes back from Call as its error, or from Read beside the
//     frames (callFailure); either way it ends that call alone.
//
// Every way out removes the entry (forget), so an abandoned call leaves
// nothing behind.

// Call sends a request and waits for its response, decoding the result into
// result (a pointer, or nil to discard it; a *json.RawMessage receives the
// exact bytes). It returns an *Error (wrapped) when the peer answered with
// one, ctx's error when ctx ended first (and then calls Options.OnAbandon),
// and an error wrapping ErrClosed or ErrDisconnected when the connection
// stopped.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	raw, err := c.call(ctx, method, params)
	if err != nil {
		return err
	}
	return decodeResult(method, raw, result)
}

// decodeResult decodes the raw result of a method's call into result: nil
// discards it, a *json.RawMessage takes it as it is, and anything else
// goes through encoding/json.
func decodeResult(method string, raw json.RawMessage, result any) error {
	switch r := result.(type) {
	case nil:
		return nil
	case *json.RawMessage:
		*r = raw
		return nil
	}
	if err := json.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("decoding %s result: %w", method, err)
	}
	return nil
}

func (c *Conn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("calling %s: %w", method, err)
	}
	n := c.lastID.Add(1)
	id := rpcwire.Int64ID(n)
	ch := c.replies.Get().(chan reply)

	// Register before writing: the response may arrive before Write returns.
	// A Caller's answer comes back from Call instead, unless messages came
	// ahead of it; then it too arrives through the read loop.
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		c.replies.Put(ch)
		return nil, fmt.Errorf("calling %s: %w", method, err)
	}
	c.pending[n] = ch
	c.mu.Unlock()
	received := false
	defer func() { c.forget(n, ch, received) }()

	answer, err := c.send(ctx, id, method, params)
	switch {
	case err != nil:
		return nil, err
	case answer != nil:
		return c.direct(id, method, answer)
	}

	// When the conn stops, stop hands the call its error through ch, as it
	// does every call in the pending map.
	select {
	case r := <-ch:
		received = true
		return response(method, r)
	case <-ctx.Done():
		if c.opts.OnAbandon != nil {
			c.opts.OnAbandon(id, method)
		}
		return nil, fmt.Errorf("calling %s: %w", method, ctx.Err())
	}
}

// send writes the request: through the stream's Call if it is a Caller,
// which may return the response itself, else through Write.
func (c *Conn) send(ctx context.Context, id ID, method string, params any) ([]byte, error) {
	var answer []byte
	f := getFrame()
	frame, err := f.request(id, method, params)
	if err == nil {
		if c.caller != nil {
			answer, err = c.caller.Call(ctx, id, method, frame)
		} else {
			err = c.stream.Write(ctx, frame)
		}
	}
	putFrame(f)
	if err == nil {
		return answer, nil
	}
	if fid, failure, ok := callFailure(err); ok && fid == id {
		return nil, fmt.Errorf("calling %s: %w", method, failure) // one call fails; the stream lives on
	}
	if ctx.Err() != nil && c.opts.OnAbandon != nil {
		// The context ended while the frame was on its way, or while its
		// answer was read: part or all of it may have reached the peer (an
		// HTTP body is sent before the answer's headers come), so tell the
		// protocol layer as if it had. A cancellation the peer never
		// needed is harmless.
		c.opts.OnAbandon(id, method)
	}
	return nil, fmt.Errorf("calling %s: %w", method, c.writeError(err))
}

func response(method string, r reply) (json.RawMessage, error) {
	m := r.m
	switch {
	case r.err != nil:
		return nil, fmt.Errorf("calling %s: %w", method, r.err)
	case m.Error != nil:
		return nil, fmt.Errorf("calling %s: %w", method, m.Error)
	}
	return m.Result, nil
}

// writeError prefers the reason the conn stopped over the raw write error:
// "server exited with status 1: …" says more than "broken pipe".
func (c *Conn) writeError(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	select {
	case <-c.done:
		return c.Err()
	default:
		return err
	}
}

// reply is what the read loop hands a waiting call: the peer's response,
// or why there is none (a ResponseLostError, a BadResponseError).
type reply struct {
	m   *rpcwire.Message
	err error
}

// forget removes a call from the pending map and recycles its channel,
// empty. If the read loop took the entry first, its send is on the way
// (deliver sends as soon as it lets go of the lock): unless the call
// received it, wait for it.
func (c *Conn) forget(n int64, ch chan reply, received bool) {
	c.mu.Lock()
	_, waiting := c.pending[n]
	delete(c.pending, n)
	c.mu.Unlock()
	if !waiting && !received {
		<-ch
	}
	c.replies.Put(ch)
}

// Notify sends a notification. It returns once the frame is handed to the
// stream.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	if err := c.Err(); err != nil {
		return fmt.Errorf("notifying %s: %w", method, err)
	}
	f := getFrame()
	frame, err := f.request(ID{}, method, params)
	if err == nil {
		err = c.stream.Write(ctx, frame)
	}
	putFrame(f)
	if err != nil {
		return fmt.Errorf("notifying %s: %w", method, c.writeError(err))
	}
	return nil
}
