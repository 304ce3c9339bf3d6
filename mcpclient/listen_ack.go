package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// A stateless-era server confirms a subscriptions/listen request with
// notifications/subscriptions/acknowledged, naming the part of the filter
// it agreed to, and sends nothing for it before. A change made before that
// would be lost, so Subscribe waits for the acknowledgement that names its
// resource.

// subscribeAckWait bounds that wait when the caller's context has no
// earlier deadline.
const subscribeAckWait = 10 * time.Second

// ackWaiter is a Subscribe waiting for its resource to be acknowledged.
type ackWaiter struct {
	uri  string
	done chan error // buffered: the read loop never blocks on it
}

// awaitAck registers a waiter for uri; the caller waits on its channel.
func (s *Session) awaitAck(uri string) *ackWaiter {
	w := &ackWaiter{uri: uri, done: make(chan error, 1)}
	s.listen.mu.Lock()
	s.listen.waiters = append(s.listen.waiters, w)
	s.listen.mu.Unlock()
	return w
}

// dropAck forgets a waiter that stopped waiting.
func (s *Session) dropAck(w *ackWaiter) {
	s.listen.mu.Lock()
	defer s.listen.mu.Unlock()
	s.listen.waiters = slices.DeleteFunc(s.listen.waiters, func(x *ackWaiter) bool { return x == w })
}

// acknowledged releases the waiters whose resource the server agreed to.
func (s *Session) acknowledged(params json.RawMessage) {
	var p struct {
		Notifications subscriptionFilter `json:"notifications"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	s.listen.mu.Lock()
	defer s.listen.mu.Unlock()
	s.listen.waiters = slices.DeleteFunc(s.listen.waiters, func(w *ackWaiter) bool {
		if slices.Contains(p.Notifications.ResourceSubscriptions, w.uri) {
			w.done <- nil
			return true
		}
		return false
	})
}

// listenFailed fails every waiter: the listen request will not be
// reopened.
func (s *Session) listenFailed(err error) {
	s.listen.mu.Lock()
	defer s.listen.mu.Unlock()
	for _, w := range s.listen.waiters {
		w.done <- err
	}
	s.listen.waiters = nil
}

// refused fails the waiters whose resource was in a listen request the
// server answered with an error: that answer is final for their
// Subscribe, which must not wait out subscribeAckWait for it. Their
// resources leave the subscriptions, which would otherwise be refused
// again with every listen request. It reports whether any did.
func (s *Session) refused(uris []string, err error) bool {
	l := &s.listen
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.waiters)
	l.waiters = slices.DeleteFunc(l.waiters, func(w *ackWaiter) bool {
		if !slices.Contains(uris, w.uri) {
			return false
		}
		w.done <- err
		l.uris = slices.DeleteFunc(l.uris, func(u string) bool { return u == w.uri })
		return true
	})
	return len(l.waiters) < n
}

// waitAck waits for w within ctx and subscribeAckWait.
func (s *Session) waitAck(ctx context.Context, w *ackWaiter) error {
	defer s.dropAck(w)
	t := time.NewTimer(subscribeAckWait)
	defer t.Stop()
	select {
	case err := <-w.done:
		if err != nil {
			return fmt.Errorf("mcpclient: subscribing to %q: %w", w.uri, err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return fmt.Errorf("mcpclient: subscribing to %q: the server did not acknowledge it within %v (it may not honour it)", w.uri, subscribeAckWait)
	}
}
