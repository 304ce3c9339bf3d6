package jsonrpc

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// gatedNotes is a Conn whose OnNotification waits for a turn before each
// notification, and the peer's end.
type gatedNotes struct {
	c       *Conn
	peer    rawPeer
	started chan string   // a notification's method, as its delivery starts
	turn    chan struct{} // one value lets one delivery end
	mu      sync.Mutex
	heard   []string
}

func newGatedNotes(t *testing.T, opts Options) *gatedNotes {
	g := &gatedNotes{started: make(chan string, 100), turn: make(chan struct{}, 100)}
	opts.OnNotification = func(ctx context.Context, r *Request) {
		g.started <- r.Method
		select {
		case <-g.turn:
		case <-ctx.Done():
		}
		g.mu.Lock()
		g.heard = append(g.heard, r.Method)
		g.mu.Unlock()
	}
	g.c, g.peer, _ = newPair(t, &opts)
	return g
}

// synced returns once the Conn has read every frame sent so far: the read
// loop takes frames in order, and a request is answered after it is read.
func (g *gatedNotes) synced(t *testing.T) {
	t.Helper()
	g.peer.send(`{"jsonrpc":"2.0","id":"sync","method":"sync"}`)
	if m, err := rpcwire.Decode([]byte(g.peer.recv())); err != nil || m.ID != rpcwire.StringID("sync") {
		t.Fatalf("sync: got %+v, %v", m, err)
	}
}

// heardAll lets every delivery end, closes the Conn (which delivers what is
// queued) and returns what OnNotification heard.
func (g *gatedNotes) heardAll() []string {
	for range cap(g.turn) {
		g.turn <- struct{}{}
	}
	g.c.Close()
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.heard
}

// The queue's bound holds for every notification waiting for
// OnNotification, including those its goroutine has already taken in
// hand: a slow callback must not let twice the bound pile up.
func TestNotificationQueueCountBound(t *testing.T) {
	g := newGatedNotes(t, Options{MaxQueuedNotifications: 4})
	g.peer.send(`{"jsonrpc":"2.0","method":"n0"}`)
	<-g.started
	for i := 1; i <= 4; i++ {
		g.peer.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"n%d"}`, i))
	}
	g.synced(t) // n1…n4 wait: the queue is full
	g.turn <- struct{}{}
	<-g.started // n1 is being delivered; n2…n4 still wait
	for i := 5; i <= 20; i++ {
		g.peer.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"n%d"}`, i))
	}
	g.synced(t)
	want := []string{"n0", "n1", "n2", "n3", "n4", "n5"}
	if got := g.heardAll(); !slices.Equal(got, want) {
		t.Errorf("heard %v, want %v: at most 4 waiting at any time", got, want)
	}
}

// The bytes bound counts what a queued notification keeps in memory: its
// whole frame, which its params point into, not the params alone. A peer
// padding tiny notifications with a large unknown member must not get
// many times the bound held.
func TestNotificationQueueBytesBoundCountsTheFrame(t *testing.T) {
	g := newGatedNotes(t, Options{MaxQueuedNotificationBytes: 1 << 20})
	g.peer.send(`{"jsonrpc":"2.0","method":"first"}`)
	<-g.started
	pad := strings.Repeat("x", 300<<10)
	for i := range 8 {
		g.peer.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"p%d","params":{},"pad":"%s"}`, i, pad))
	}
	g.synced(t)
	want := []string{"first", "p0", "p1", "p2"} // 3 × 300 KiB fit in 1 MiB
	if got := g.heardAll(); !slices.Equal(got, want) {
		t.Errorf("heard %v, want %v", got, want)
	}
}
