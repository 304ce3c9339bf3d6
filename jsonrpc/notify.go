package jsonrpc

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// notificationQueue delivers the peer's notifications to one goroutine in
// arrival order without ever blocking the read loop. It is bounded: past its
// limit new notifications are dropped and reported.
type notificationQueue struct {
	mu      sync.Mutex
	items   []*Request
	bytes   int // of the params queued
	limit   int
	maxSize int
	wake    chan struct{} // 1-buffered: "there is something to do"
	done    chan struct{} // closed when run has returned; made by start
	stopped bool
	dropped atomic.Bool // by finish, past its bound: run delivers nothing more
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

func (q *notificationQueue) push(r *Request, log *slog.Logger) {
	q.mu.Lock()
	if len(q.items) >= q.limit || q.bytes+len(r.Params) > q.maxSize {
		q.mu.Unlock()
		log.Warn("jsonrpc: notification queue full, dropping notification", "method", r.Method, "bytes", len(r.Params))
		return
	}
	q.items = append(q.items, r)
	q.bytes += len(r.Params)
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

func (q *notificationQueue) run(ctx context.Context, fn NotificationHandler) {
	defer close(q.done)
	for {
		q.mu.Lock()
		items, stopped := q.items, q.stopped
		q.items, q.bytes = nil, 0
		q.mu.Unlock()
		for _, r := range items {
			if q.dropped.Load() {
				return
			}
			fn(ctx, r)
		}
		if stopped && len(items) == 0 {
			return
		}
		if len(items) == 0 {
			<-q.wake
		}
	}
}
