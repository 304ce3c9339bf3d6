package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// A batch counts against MaxPeerRequests as lone requests do: a peer that
// packs hundreds of requests into one array gets no more handled at once
// than the limit, and an answer for every one of them (the rest refused).
func TestBatchOfRequestsIsBounded(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free()
	var running, most atomic.Int64
	handler := func(ctx context.Context, req *Request) (any, error) {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		defer running.Add(-1)
		<-release
		return "ok", nil
	}
	_, peer, _ := newPair(t, &Options{Handler: handler, MaxPeerRequests: 8})
	const flood = 500
	elems := make([]string, flood)
	for i := range elems {
		elems[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"sampling/createMessage"}`, i)
	}
	peer.send("[" + strings.Join(elems, ",") + "]")
	// The batch holds every slot, so a lone request after it is refused.
	peer.send(`{"jsonrpc":"2.0","id":"probe","method":"ping"}`)
	m, err := rpcwire.Decode([]byte(peer.recv()))
	if err != nil || m.ID != rpcwire.StringID("probe") || m.Error == nil {
		t.Fatalf("after a batch of %d requests a lone one got %+v, %v; want it refused", flood, m, err)
	}
	free()
	var answers []struct {
		Result string `json:"result"`
		Error  *Error `json:"error"`
	}
	if err := json.Unmarshal([]byte(peer.recv()), &answers); err != nil {
		t.Fatalf("batch answer: %v", err)
	}
	ok, refused := 0, 0
	for _, a := range answers {
		switch {
		case a.Result == "ok":
			ok++
		case a.Error != nil && strings.Contains(a.Error.Message, "too many requests in flight"):
			refused++
		}
	}
	if ok != 8 || refused != flood-8 {
		t.Errorf("batch answered %d ok and %d refused of %d, want 8 and %d", ok, refused, len(answers), flood-8)
	}
	if most.Load() > 8 {
		t.Errorf("%d handlers ran at once, want at most 8", most.Load())
	}
}

// A batch element that answers a call of ours but cannot be decoded ends
// that call at once, as a lone frame does, rather than leaving it to wait.
func TestUndecodableResponseInABatchEndsItsCall(t *testing.T) {
	c, peer, _ := newPair(t, nil)
	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "m", nil, nil) }()
	req, _ := rpcwire.Decode([]byte(peer.recv()))
	peer.send(`[{"jsonrpc":"2.0","method":"note"},{"jsonrpc":"1.0","id":` + req.ID.String() + `,"result":5}]`)
	select {
	case err := <-done:
		var br *rpcwire.BadResponseError
		if !errors.As(err, &br) || br.ID != req.ID {
			t.Fatalf("err = %v, want a *rpcwire.BadResponseError for id %s", err, req.ID)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call waited on after its undecodable answer came in a batch")
	}
}

// A batch costs memory in proportion to what it holds, not many times its
// frame: its elements are handled one by one, not all decoded first. The
// logger forces a collection now and then while the batch's bad elements
// are reported, and notes the live heap.
func TestBatchOfBadElementsHoldsLittle(t *testing.T) {
	const elems = 1 << 20
	frame := "[" + strings.Repeat("{},", elems-1) + "{}]"
	h := &heapWatch{every: elems / 16}
	runtime.GC()
	h.base = liveHeap()
	_, peer, _ := newPair(t, &Options{Logger: slog.New(h)})
	peer.send(frame)
	peer.send(`{"jsonrpc":"2.0","id":"sync","method":"sync"}`)
	select {
	case <-peer.s.in: // the answer to sync: the batch has been handled
	case <-time.After(time.Minute):
		t.Fatal("no answer within a minute")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen < elems {
		t.Fatalf("%d reports of %d bad elements", h.seen, elems)
	}
	// The frame itself, and once more for the copy the peer's pipe made.
	if grown := h.most - h.base; grown > 4*uint64(len(frame)) {
		t.Errorf("the live heap grew by %d MiB while a batch of %d MiB was handled", grown>>20, len(frame)>>20)
	}
}

// heapWatch is a slog.Handler that, every so many records, collects
// garbage and notes the largest live heap seen.
type heapWatch struct {
	mu          sync.Mutex
	every, seen int
	base, most  uint64
}

func (h *heapWatch) Enabled(context.Context, slog.Level) bool { return true }
func (h *heapWatch) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *heapWatch) WithGroup(string) slog.Handler            { return h }
func (h *heapWatch) Handle(context.Context, slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seen++; h.seen%h.every == 0 {
		runtime.GC()
		h.most = max(h.most, liveHeap())
	}
	return nil
}

func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// Past maxBatchRequests, a batch's requests are neither handled nor
// answered: each costs memory until the batch's answer goes out.
func TestBatchRequestsPastTheCapAreIgnored(t *testing.T) {
	handler := func(ctx context.Context, req *Request) (any, error) { return "ok", nil }
	_, peer, log := newPair(t, &Options{Handler: handler, MaxPeerRequests: 2 * maxBatchRequests})
	elems := make([]string, maxBatchRequests+10)
	for i := range elems {
		elems[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)
	}
	peer.send("[" + strings.Join(elems, ",") + "]")
	var answers []json.RawMessage
	if err := json.Unmarshal([]byte(peer.recv()), &answers); err != nil {
		t.Fatalf("batch answer: %v", err)
	}
	if len(answers) != maxBatchRequests {
		t.Errorf("%d answers to a batch of %d requests, want %d", len(answers), len(elems), maxBatchRequests)
	}
	log.waitFor(t, "ignored=10")
}
