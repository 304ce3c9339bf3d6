package jsonrpc

import (
	"bytes"
	"context"
	"sync"

	"github.com/plainmcp/plainmcp/internal/jsonscan"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// handleBatch processes a JSON array of messages. Responses are delivered
// and notifications queued in order; the requests run concurrently (within
// MaxPeerRequests, as lone ones do) and their answers go back together as
// one array, as JSON-RPC 2.0 requires. We never send batches ourselves.
//
// The elements are decoded and handled one by one, never all at once: a
// batch of a million tiny elements must not cost many times its frame.
// For the same reason at most maxBatchRequests of its requests are taken
// (handled or refused); the peer gets no answer for the rest.
func (c *Conn) handleBatch(frame []byte) {
	start, err := rpcwire.CheckBatch(frame)
	if err != nil {
		c.log.Warn("jsonrpc: dropping batch", "error", err, "frame", preview(frame))
		return
	}
	var reqs []*Request
	ignored := 0
	jsonscan.EachElement(frame, start, func(elem []byte) {
		m := c.decodeOrFail(elem)
		switch {
		case m == nil:
		case m.IsResponse():
			c.deliver(m.ID, reply{m: m})
		case m.IsNotification():
			// Its params would keep the whole batch in memory: a copy
			// keeps only them.
			m.Params = bytes.Clone(m.Params)
			c.queueNotification(m, len(m.Params))
		case len(reqs) < maxBatchRequests:
			reqs = append(reqs, &Request{ID: m.ID, Method: m.Method, Params: m.Params})
		default:
			ignored++
		}
	})
	if ignored > 0 {
		c.log.Warn("jsonrpc: too many requests in a batch; ignoring the rest", "ignored", ignored, "limit", maxBatchRequests)
	}
	if len(reqs) > 0 {
		c.answerBatch(reqs)
	}
}

// maxBatchRequests bounds the requests of one batch that are handled or
// refused; each costs memory until the batch's answer is sent.
const maxBatchRequests = 1024

// answerBatch handles a batch's requests and sends their answers as one
// array. Each takes a slot of MaxPeerRequests as a lone request does, or
// is refused at once in its place: packing requests into one batch must
// not get a peer more handlers at once (or goroutines) than the limit.
func (c *Conn) answerBatch(reqs []*Request) {
	answers := make([][]byte, len(reqs))
	ctxs := make([]context.Context, len(reqs))
	refused := 0
	for i, r := range reqs {
		select {
		case c.handlers <- struct{}{}:
			ctxs[i] = c.startRequest(r)
		default:
			answers[i] = rpcwire.AppendError(nil, r.ID, c.tooMany())
			refused++
		}
	}
	if refused > 0 {
		c.log.Warn("jsonrpc: too many requests from the peer in flight; refusing some of a batch", "refused", refused, "of", len(reqs), "limit", cap(c.handlers))
	}
	go func() {
		var wg sync.WaitGroup
		for i, r := range reqs {
			if ctxs[i] == nil {
				continue // refused
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-c.handlers }()
				answers[i] = c.handle(ctxs[i], r)
				if !c.finishRequest(r.ID) {
					answers[i] = nil
				}
			}()
		}
		wg.Wait()
		c.sendBatch(answers)
	}()
}

// sendBatch writes the answers that are due as one array, if any are.
func (c *Conn) sendBatch(answers [][]byte) {
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
}
