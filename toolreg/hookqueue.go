package toolreg

import (
	"context"
	"sync"
)

// hookQueue delivers the OnConnect and OnDisconnect hooks in the order
// their events happened, from a goroutine that runs only while there is
// something to deliver. So a hook never runs inside a connection attempt,
// a listing that the registry's callers share, or a lock: it may call any
// method of the registry, and one that blocks holds up the hooks after it,
// never the registry.
type hookQueue struct {
	mu      sync.Mutex
	pending []*hookEvent
	running bool       // a goroutine delivers pending
	idle    *sync.Cond // signalled when running turns false
}

// A hookEvent is one hook call to make; done closes once it has run.
type hookEvent struct {
	run  func()
	done chan struct{}
}

// post queues run, starting the delivering goroutine if none runs.
func (q *hookQueue) post(run func()) *hookEvent {
	ev := &hookEvent{run: run, done: make(chan struct{})}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending = append(q.pending, ev)
	if !q.running {
		q.running = true
		go q.deliver()
	}
	return ev
}

func (q *hookQueue) deliver() {
	for {
		ev := q.next(true)
		if ev == nil {
			return
		}
		ev.run()
		close(ev.done)
	}
}

// next takes the first pending event, or returns nil if there is none;
// for the delivering goroutine (runner), that ends its run.
func (q *hookQueue) next(runner bool) *hookEvent {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending) == 0 {
		if runner {
			q.running = false
			if q.idle != nil {
				q.idle.Broadcast()
			}
		}
		return nil
	}
	ev := q.pending[0]
	q.pending = q.pending[1:]
	return ev
}

// await returns once the events evs have run. Rather than wait behind a
// hook in progress (which may be the very one that called Close or
// Remove), it delivers what is pending itself, in order, then waits only
// for those of evs the goroutine took before it.
func (q *hookQueue) await(evs ...*hookEvent) {
	for ev := q.next(false); ev != nil; ev = q.next(false) {
		ev.run()
		close(ev.done)
	}
	for _, ev := range evs {
		if ev != nil {
			<-ev.done
		}
	}
}

// settle returns once every event posted so far has run and no hook is
// running: New waits so, so that the hooks of its servers have run when
// it returns. Never call it from a hook.
func (q *hookQueue) settle() {
	q.await()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.idle == nil {
		q.idle = sync.NewCond(&q.mu)
	}
	for q.running {
		q.idle.Wait()
	}
}

// notify queues a hook call about s: at once if s is visible in the
// registry, else when Add makes it so (publish), and never if Add rolls
// it back.
func (s *server) notify(run func()) *hookEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.published {
		s.held = append(s.held, run)
		return nil
	}
	return s.r.hooks.post(run)
}

// publish makes s visible to its hooks, queueing what they missed.
func (s *server) publish() []*hookEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.published = true
	var evs []*hookEvent
	for _, run := range s.held {
		evs = append(evs, s.r.hooks.post(run))
	}
	s.held = nil
	return evs
}

// disconnected tells the OnDisconnect hook why a session ended or did not
// start.
func (s *server) disconnected(reason error) *hookEvent {
	if s.r.opts.OnDisconnect == nil {
		return nil
	}
	return s.notify(func() {
		s.r.hook("OnDisconnect", func() { s.r.opts.OnDisconnect(s.cfg.Name, reason) })
	})
}

// connected tells the OnConnect hook of a server ready for use. The
// counts it reports come of listings made here, in the hook's turn, not
// inside the connection attempt: a listing that caused the connection
// goes on meanwhile, and the hook's listings join it.
func (s *server) connected() {
	if s.r.opts.OnConnect == nil {
		return
	}
	s.notify(func() {
		ctx, cancel := context.WithTimeout(context.Background(), s.startupTimeout())
		defer cancel()
		defer context.AfterFunc(s.life, cancel)()
		s.listTools(ctx)
		s.listPrompts(ctx)
		s.listResources(ctx)
		st := s.status()
		s.r.hook("OnConnect", func() { s.r.opts.OnConnect(st) })
	})
}
