package jsonrpc

import (
	"context"
	"sync"
)

// handleBatch processes a JSON array of messages. Responses are delivered
// and notifications queued in order; the requests run concurrently and their
// answers go back together as one array, as JSON-RPC 2.0 requires. We never
// send batches ourselves.
func (c *Conn) handleBatch(frame []byte) {
	msgs, errs, err := DecodeBatch(frame)
	if err != nil {
		c.log.Warn("jsonrpc: dropping batch", "error", err, "frame", preview(frame))
		return
	}
	var reqs []*Request
	for i, m := range msgs {
		switch {
		case errs[i] != nil:
			c.log.Warn("jsonrpc: dropping batch element", "index", i, "error", errs[i])
		case m.IsResponse():
			c.deliver(m.ID, reply{m: m})
		case m.IsNotification():
			c.queueNotification(m)
		default:
			reqs = append(reqs, &Request{ID: m.ID, Method: m.Method, Params: m.Params})
		}
	}
	if len(reqs) == 0 {
		return
	}
	ctxs := make([]context.Context, len(reqs))
	for i, r := range reqs {
		ctxs[i] = c.startRequest(r)
	}
	go func() {
		answers := make([][]byte, len(reqs))
		var wg sync.WaitGroup
		for i, r := range reqs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				answers[i] = c.handle(ctxs[i], r)
				if !c.finishRequest(r.ID) {
					answers[i] = nil
				}
			}()
		}
		wg.Wait()
		out := []byte{'['}
		for _, a := range answers {
			if a == nil {
				continue
			}
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, a...)
		}
		if len(out) == 1 {
			return
		}
		out = append(out, ']')
		if err := c.stream.Write(c.baseCtx, out); err != nil {
			c.log.Debug("jsonrpc: could not send batch response", "error", err)
		}
	}()
}
