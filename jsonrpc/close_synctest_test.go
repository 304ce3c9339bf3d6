//go:build go1.25

package jsonrpc

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// notesPair is a Conn whose OnNotification is slow (each notification
// takes a second of the bubble's clock) and records what it heard, and
// the peer's end, with n notifications already read by the Conn.
func notesPair(t *testing.T, n int, onNote func(c *Conn)) (*Conn, *memStream, func() []string) {
	a, b := memPipe()
	var mu sync.Mutex
	var heard []string
	var c *Conn
	c = NewConn(a, &Options{OnNotification: func(ctx context.Context, r *Request) {
		time.Sleep(time.Second)
		mu.Lock()
		heard = append(heard, r.Method)
		mu.Unlock()
		if onNote != nil {
			onNote(c)
		}
	}})
	for i := range n {
		if err := b.Write(context.Background(), rpcwire.AppendRequest(nil, ID{}, fmt.Sprintf("n%d", i), nil)); err != nil {
			t.Fatal(err)
		}
	}
	synctest.Wait() // all read: the first is being delivered, the rest are queued
	return c, b, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), heard...)
	}
}

// A handler slower than Close's bound keeps it no longer than that, and
// what is still queued then is dropped: after Close returns, only the
// handler already running goes on.
func TestCloseWaitsForASlowHandlerOnlySoLong(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, peer, heard := notesPair(t, 3, nil)
		defer peer.Close()
		// Each takes a second; the bound is half of one.
		start := time.Now()
		c.Close()
		if waited := time.Since(start); waited != notifyDrainWait {
			t.Errorf("Close waited %v for a slow handler, want its bound %v", waited, notifyDrainWait)
		}
		synctest.Wait()
		if got := heard(); len(got) != 0 {
			t.Errorf("heard %v before the first handler could end", got)
		}
		time.Sleep(4 * time.Second)
		if got := heard(); len(got) != 1 {
			t.Errorf("heard %v after Close, want the first alone", got)
		}
	})
}

// The notifications that came before Close are delivered by the time it
// returns, so a host hears of none after it closed the connection.
func TestCloseDeliversTheNotificationsThatCameBefore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := memPipe()
		defer b.Close()
		release := make(chan struct{})
		var heard []string
		c := NewConn(a, &Options{OnNotification: func(ctx context.Context, r *Request) {
			<-release
			heard = append(heard, r.Method) // the delivery goroutine's alone
		}})
		for i := range 3 {
			b.Write(context.Background(), rpcwire.AppendRequest(nil, ID{}, fmt.Sprintf("n%d", i), nil))
		}
		synctest.Wait()
		go func() { time.Sleep(100 * time.Millisecond); close(release) }()
		start := time.Now()
		c.Close()
		if waited := time.Since(start); waited != 100*time.Millisecond || len(heard) != 3 {
			t.Errorf("Close returned after %v having delivered %v; want 100ms and all 3", waited, heard)
		}
	})
}

// A handler that closes the connection itself costs Close its bound, no
// deadlock.
func TestCloseFromANotificationHandler(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		closed := make(chan time.Duration, 1)
		c, peer, heard := notesPair(t, 2, func(c *Conn) {
			start := time.Now()
			c.Close()
			select {
			case closed <- time.Since(start):
			default:
			}
		})
		defer peer.Close()
		if waited := <-closed; waited != notifyDrainWait {
			t.Errorf("Close from the handler waited %v, want %v", waited, notifyDrainWait)
		}
		time.Sleep(2 * time.Second)
		if got := heard(); len(got) != 1 {
			t.Errorf("heard %v, want the first alone: the second was still queued when Close's moment ran out", got)
		}
		if err := c.Err(); err == nil {
			t.Error("the conn still runs")
		}
	})
}
