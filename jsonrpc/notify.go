package jsonrpc

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plainmcp/plainmcp/internal/logging"
)

// notificationQueue delivers the peer's notifications to one goroutine in
// arrival order without ever blocking the read loop. It is bounded: past its
// limit new notifications are dropped and reported.
type notificationQueue struct {
	mu      sync.Mutex
	items   []queuedNote
	bytes   int // that the queued notifications keep in memory
	limit   int
	maxSize int
	wake    chan struct{} // 1-buffered: "there is something to do"
	done    chan struct{} // closed when run has returned; made by start
	stopped bool
	dropped atomic.Bool // by finish, past its bound: run delivers nothing more
}

// queuedNote is a notification and the bytes it keeps in memory: its
// params point into its frame, so the frame stays as long as they do.
type queuedNote struct {
	r    *Request
	size int
}

// init sets the bounds; the wake-up channel is made only if notifications
// will be delivered (a nil one is never waited on, and signal skips it).
func (q *notificationQueue) init(limit, maxBytes int, delivered bool) {
	q.limit = orDefault(limit, 10000)
	q.maxSize = orDefault(maxBytes, 64<<20)
	if delivered {
		q.wake = make(chan struct{}, 1)
	}
}

// push queues r, which keeps size bytes in memory, unless that would
// pass a bound.
func (q *notificationQueue) push(r *Request, size int, log logging.Logger) {
	q.mu.Lock()
	if len(q.items) >= q.limit || q.bytes+size > q.maxSize {
		q.mu.Unlock()
		log.Warn("jsonrpc: notification queue full, dropping notification", "method", r.Method, "bytes", size)
		return
	}
	q.items = append(q.items, queuedNote{r, size})
	q.bytes += size
	q.mu.Unlock()
	q.signal()
}

func (q *notificationQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// stop lets run return once what is queued has been delivered.
func (q *notificationQueue) stop() {
	q.mu.Lock()
	q.stopped = true
	q.mu.Unlock()
	q.signal()
}

// start runs the delivery on a goroutine of its own.
func (q *notificationQueue) start(ctx context.Context, fn NotificationHandler) {
	q.done = make(chan struct{})
	go q.run(ctx, fn)
}

// finish waits, up to bound, for run to have delivered what was queued
// and returned; it reports whether it did. Past the bound it drops what
// is still undelivered: only the notification being delivered then
// outlives the wait.
func (q *notificationQueue) finish(bound time.Duration) bool {
	if q.done == nil {
		return true
	}
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-q.done:
		return true
	case <-t.C:
	}
	q.dropped.Store(true)
	q.mu.Lock()
	q.items, q.bytes = nil, 0
	q.mu.Unlock()
	return false
}

// run delivers the notifications one by one. Each leaves the queue, and
// its bounds, only as its delivery starts: one taken early would make
// room for more than the bounds allow to wait.
func (q *notificationQueue) run(ctx context.Context, fn NotificationHandler) {
	defer close(q.done)
	for {
		r, stopped := q.pop()
		switch {
		case q.dropped.Load():
			return
		case r != nil:
			fn(ctx, r)
		case stopped:
			return
		default:
			<-q.wake
		}
	}
}

// pop takes the oldest notification out of the queue, if there is one,
// and says whether the queue was stopped.
func (q *notificationQueue) pop() (*Request, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		if cap(q.items) > 64 {
			q.items = nil // let a drained backlog's array go
		}
		return nil, q.stopped
	}
	n := q.items[0]
	q.items[0] = queuedNote{}
	q.items = q.items[1:]
	q.bytes -= n.size
	return n.r, q.stopped
}
