package toolreg

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// listTimeout bounds one refresh of a listing (all its pages, and the
// reconnect it may need). It runs apart from the caller that started it,
// whose leaving must not fail the others waiting for the same listing.
const listTimeout = 2 * time.Minute

// A catalog is one server's cached listing of one kind: its tools, its
// prompts, its resources or its resource templates. A listing is asked for
// again only when it went stale (a list_changed notification, a reconnect),
// and then once, however many callers want it at the same time (single
// flight). The server's mu guards it.
type catalog[T any] struct {
	items  []T
	listed bool  // items holds a complete listing
	stale  bool  // the server said it changed since
	err    error // the last refresh's failure, nil once one succeeds
	flight *flight[T]
}

// A flight is one refresh in progress, shared by every caller waiting for it.
type flight[T any] struct {
	done  chan struct{}
	items []T
	err   error
}

// fetcher asks a live session for a whole listing of one kind.
type fetcher[T any] func(ctx context.Context, session *mcpclient.Session) ([]T, error)

// cachedList returns c's items: the cached listing while it is fresh, else
// the result of one refresh shared with every concurrent caller; while
// the server is not connected, the last listing at once, if there was
// one. When the refresh fails, the error comes with the last listing, if
// there was one. Each caller
// stops waiting when its own ctx ends; the refresh goes on for the others,
// bounded by listTimeout, and cut short by the server's close, which waits
// for it.
func cachedList[T any](ctx context.Context, s *server, c *catalog[T], fetch fetcher[T]) ([]T, error) {
	s.mu.Lock()
	if c.listed && !c.stale && c.flight == nil && s.state == StateConnected {
		items := c.items
		s.mu.Unlock()
		return items, nil
	}
	if s.closed {
		err := s.closedError()
		s.mu.Unlock()
		return nil, err
	}
	f := c.flight
	if f == nil {
		f = &flight[T]{done: make(chan struct{})}
		c.flight = f
		c.stale = false // a change announced during the refresh marks it again
		s.bg.Add(1)
		go refresh(ctx, s, c, f, fetch)
	}
	if s.state != StateConnected && c.listed {
		// The server is being restarted, which may take its whole
		// startup timeout, and a host asks for the listing every turn:
		// its last listing answers now, with why it is not fresh, and
		// the refresh goes on in the background.
		items, err := c.items, s.lastErr
		s.mu.Unlock()
		return items, err
	}
	s.mu.Unlock()
	select {
	case <-f.done:
		return f.items, f.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// refresh runs one flight and publishes its outcome.
func refresh[T any](ctx context.Context, s *server, c *catalog[T], f *flight[T], fetch fetcher[T]) {
	defer s.bg.Done()
	// Apart from the caller's cancellation and values (a progress
	// callback): the refresh serves everyone waiting for it.
	ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	items, err := func() ([]T, error) {
		session, err := s.live(ctx)
		if err != nil {
			return nil, err
		}
		return fetch(ctx, session)
	}()
	s.mu.Lock()
	c.err = err
	switch {
	case err == nil:
		c.items, c.listed = items, true
	case errors.Is(err, mcpclient.ErrPagination) && items != nil:
		// The server paginates without end: keep the pages it gave,
		// marked incomplete (c.err says why), and do not ask again
		// until it says the list changed.
		c.items, c.listed = items, true
		err = nil
	default:
		// Keep offering what the server listed last: its names keep
		// routing calls, and a call is what reconnects a dead server.
		c.stale, items = true, c.items
	}
	c.flight = nil
	s.mu.Unlock()
	f.items, f.err = items, err
	close(f.done)
}

// collect makes the fetcher of one kind of listing: every page of list,
// or nothing without a request when offered (if set) says the server's
// capabilities leave the kind out.
func collect[T any](s *server, what string, offered func(mcpclient.ServerCapabilities) bool,
	list func(*mcpclient.Session, context.Context) iter.Seq2[T, error]) fetcher[T] {
	return func(ctx context.Context, session *mcpclient.Session) ([]T, error) {
		if offered != nil && !offered(session.Capabilities()) {
			return []T{}, nil
		}
		all, err := mcpclient.Collect(list(session, ctx))
		if err != nil {
			err = fmt.Errorf("server %q: listing %s: %w", s.cfg.Name, what, err)
			if errors.Is(err, mcpclient.ErrPagination) {
				if all == nil {
					all = []T{}
				}
				return all, err // the pages it got, and why there are no more
			}
			return nil, err
		}
		return all, nil
	}
}

// listAll runs list on every enabled server in parallel. A server whose
// listing fails is logged and contributes its last listing: none if it
// never listed, the tools it had if it died and is to be reconnected.
func listAll[T any](ctx context.Context, r *Registry, servers []*server,
	list func(*server, context.Context) ([]T, error)) ([][]T, error) {
	lists := make([][]T, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		if off(s.cfg) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			items, err := list(s, ctx)
			if err != nil {
				r.log.Warn("toolreg: listing failed", "server", s.cfg.Name, "error", err)
			}
			lists[i] = items // the last listing, if the server is reconnecting
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return lists, nil
}
