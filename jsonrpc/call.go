package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

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
	id := Int64ID(n)
	ch := make(chan *Message, 1)

	// Register before writing: the response may arrive before Write returns.
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return nil, fmt.Errorf("calling %s: %w", method, err)
	}
	c.pending[n] = ch
	c.mu.Unlock()
	defer c.forget(n)

	buf := getBuffer()
	frame, err := appendRequestParams(*buf, id, method, params)
	if err == nil {
		err = c.stream.Write(ctx, frame)
	}
	*buf = frame
	putBuffer(buf)
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", method, c.writeError(err))
	}

	select {
	case m := <-ch:
		return response(method, m)
	case <-ctx.Done():
		if c.opts.OnAbandon != nil {
			c.opts.OnAbandon(id, method)
		}
		return nil, fmt.Errorf("calling %s: %w", method, ctx.Err())
	case <-c.done:
		// A response delivered just before the stop still counts.
		select {
		case m := <-ch:
			return response(method, m)
		default:
		}
		return nil, fmt.Errorf("calling %s: %w", method, c.Err())
	}
}

func response(method string, m *Message) (json.RawMessage, error) {
	if m.Error != nil {
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

func (c *Conn) forget(n int64) {
	c.mu.Lock()
	delete(c.pending, n)
	c.mu.Unlock()
}

// Notify sends a notification. It returns once the frame is handed to the
// stream.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	if err := c.Err(); err != nil {
		return fmt.Errorf("notifying %s: %w", method, err)
	}
	buf := getBuffer()
	frame, err := appendRequestParams(*buf, ID{}, method, params)
	if err == nil {
		err = c.stream.Write(ctx, frame)
	}
	*buf = frame
	putBuffer(buf)
	if err != nil {
		return fmt.Errorf("notifying %s: %w", method, c.writeError(err))
	}
	return nil
}
