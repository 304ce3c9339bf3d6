package mcpclient

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/errtype"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// In the stateless era there are no resources/subscribe requests and no
// unsolicited notifications: a client that wants to hear about changes
// keeps one subscriptions/listen request open, naming what it wants, and
// the server streams those notifications on it. The session keeps that
// request open whenever a callback wants change notifications or a
// resource is subscribed, and reopens it when the set changes.

// listener is the session's subscriptions/listen request.
type listener struct {
	mu     sync.Mutex
	uris   []string           // subscribed resources
	cancel context.CancelFunc // ends the running request
	closed bool
	wg     sync.WaitGroup
	// waiters are the Subscribe calls waiting for the server to
	// acknowledge their resource (listen_ack.go).
	waiters []*ackWaiter
}

type listenParams struct {
	Notifications subscriptionFilter `json:"notifications"`
}

type subscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// relisten (re)opens the listen request for the current filter, or closes
// it when nothing is wanted. List changes are asked for only where the
// server declared listChanged: a server that declared none costs no
// long-lived request unless a resource is subscribed.
func (s *Session) relisten() {
	f := s.listChanges()
	l := &s.listen
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
	if l.closed || (!f.ToolsListChanged && !f.PromptsListChanged && !f.ResourcesListChanged && len(l.uris) == 0) {
		return
	}
	f.ResourceSubscriptions = slices.Clone(l.uris)
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), noTimeoutKey{}, true))
	l.cancel = cancel
	l.wg.Add(1)
	go s.listenLoop(ctx, f)
}

// listChanges is the part of the filter a callback wants and the server
// declared it sends (listChanged in its capabilities).
func (s *Session) listChanges() subscriptionFilter {
	if s.opts.OnListChanged == nil {
		return subscriptionFilter{}
	}
	caps := s.Capabilities()
	return subscriptionFilter{
		ToolsListChanged:     caps.Tools != nil && caps.Tools.ListChanged,
		PromptsListChanged:   caps.Prompts != nil && caps.Prompts.ListChanged,
		ResourcesListChanged: caps.Resources != nil && caps.Resources.ListChanged,
	}
}

// listenLoop keeps one listen request open until ctx ends, reopening it
// with a growing pause if the server ends it or it fails. A server that
// does not know the method is left alone.
func (s *Session) listenLoop(ctx context.Context, f subscriptionFilter) {
	defer s.listen.wg.Done()
	pause := time.Second
	for {
		err := s.call(ctx, "subscriptions/listen", listenParams{f}, nil)
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, jsonrpc.ErrMethodNotFound) || errors.Is(err, jsonrpc.ErrClosed) || errors.Is(err, jsonrpc.ErrDisconnected) {
			s.log.Debug("mcpclient: subscriptions/listen stopped", "error", err)
			s.listenFailed(err)
			return
		}
		var rpcErr *jsonrpc.Error
		if errtype.As(err, &rpcErr) && s.refused(f.ResourceSubscriptions, err) {
			s.relisten() // without them; this loop's ctx ends with it
			return
		}
		s.log.Debug("mcpclient: subscriptions/listen ended; reopening", "error", err, "after", pause)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return
		}
		pause = min(2*pause, 30*time.Second)
	}
}

// stopListening ends the listen request for good; Close calls it.
func (s *Session) stopListening() {
	l := &s.listen
	l.mu.Lock()
	l.closed = true
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
	l.mu.Unlock()
	l.wg.Wait()
}

// subscribeStateless adds or removes uri and reopens the listen request.
func (s *Session) subscribeStateless(uri string, on bool) {
	l := &s.listen
	l.mu.Lock()
	i := slices.Index(l.uris, uri)
	switch {
	case on && i < 0:
		l.uris = append(l.uris, uri)
	case !on && i >= 0:
		l.uris = slices.Delete(l.uris, i, i+1)
	}
	l.mu.Unlock()
	s.relisten()
}
