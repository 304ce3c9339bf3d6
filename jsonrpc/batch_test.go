package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
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
	m, err := Decode([]byte(peer.recv()))
	if err != nil || m.ID != StringID("probe") || m.Error == nil {
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
