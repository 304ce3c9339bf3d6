package toolreg

import (
	"context"
	"fmt"
	"iter"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg/internal/ext"
)

// What the extension packages (toolreg/skills, toolreg/ui) reach of a
// registry, through toolreg/internal/ext: they list and read on the
// registry's sessions, and the registry keeps their results as fresh as
// its own lists. A program that calls neither links neither.

func init() {
	ext.RegistryOf = func(r any) ext.Registry { return extRegistry{r.(*Registry)} }
}

// extRegistry is a Registry as ext.Registry.
type extRegistry struct{ r *Registry }

func (e extRegistry) List(ctx context.Context, kind string, offers func(mcpclient.ServerCapabilities) bool,
	all func(context.Context, *mcpclient.Session) iter.Seq2[any, error]) ([]string, [][]any, error) {
	servers := e.r.snapshot()
	// collect takes the session first, as a method expression would.
	list := func(session *mcpclient.Session, ctx context.Context) iter.Seq2[any, error] { return all(ctx, session) }
	lists, err := listAll(ctx, e.r, servers, func(s *server, ctx context.Context) ([]any, error) {
		s.mu.Lock()
		c := s.extLists[kind]
		if c == nil {
			c = &catalog[any]{}
			if s.extLists == nil {
				s.extLists = map[string]*catalog[any]{}
			}
			s.extLists[kind] = c
		}
		s.mu.Unlock()
		return cachedList(ctx, s, c, collect(s, kind, offers, list))
	})
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, len(servers))
	for i, s := range servers {
		names[i] = s.cfg.Name
	}
	return names, lists, nil
}

func (e extRegistry) Names(refs [][2]string) []string {
	asRefs := make([]Ref, len(refs))
	for i, ref := range refs {
		asRefs[i] = Ref{Server: ref[0], Tool: ref[1]}
	}
	table := buildNames(asRefs, nil)
	out := make([]string, len(refs))
	for i, ref := range asRefs {
		out[i], _ = table.Name(ref)
	}
	return out
}

func (e extRegistry) Keep(key string, v any) {
	e.r.mu.Lock()
	defer e.r.mu.Unlock()
	if e.r.kept == nil {
		e.r.kept = map[string]any{}
	}
	e.r.kept[key] = v
}

func (e extRegistry) Kept(key string) any {
	e.r.mu.Lock()
	defer e.r.mu.Unlock()
	return e.r.kept[key]
}

func (e extRegistry) Cached(ctx context.Context, server, key string, read func(context.Context, *mcpclient.Session) (any, error)) (any, error) {
	e.r.mu.Lock()
	s := e.r.servers[server]
	e.r.mu.Unlock()
	if s == nil {
		return nil, fmt.Errorf("%w: server %q was removed", ErrUnknownTool, server)
	}
	return s.read(ctx, key, read)
}

func (e extRegistry) Resources(ctx context.Context, server string) []*mcpclient.Resource {
	e.r.mu.Lock()
	s := e.r.servers[server]
	e.r.mu.Unlock()
	if s == nil {
		return nil
	}
	resources, _ := s.listResources(ctx)
	return resources
}

// staleExtLists makes the next listing of each extension's kind ask the
// server again; s.mu is held.
func (s *server) staleExtLists() {
	for _, c := range s.extLists {
		c.stale = true
	}
}

// readCache holds what extensions read from a server's resources (an
// MCP App's interface), on the session it names; another session (a
// reconnect) finds it empty. The server's mu guards it.
type readCache struct {
	session *mcpclient.Session
	byKey   map[string]*readEntry
	gen     int // counts the times it was emptied
}

// readEntry is one read, shared by every caller that wants it.
type readEntry struct {
	done chan struct{}
	v    any
	err  error
}

// read returns what is cached under key, or reads it: once, however many
// callers ask at the same time. A failed read is not kept.
func (s *server) read(ctx context.Context, key string, read func(context.Context, *mcpclient.Session) (any, error)) (any, error) {
	s.mu.Lock()
	if s.reads.session != s.session {
		s.forgetReads()
		s.reads.session = s.session
	}
	e := s.reads.byKey[key]
	gen := s.reads.gen
	if e == nil {
		e = &readEntry{done: make(chan struct{})}
		if s.reads.byKey == nil {
			s.reads.byKey = map[string]*readEntry{}
		}
		s.reads.byKey[key] = e
		s.mu.Unlock()
		e.v, e.err = s.readLive(ctx, read)
		close(e.done)
		s.mu.Lock()
		if (e.err != nil || s.reads.gen != gen) && s.reads.byKey[key] == e {
			delete(s.reads.byKey, key)
		}
		s.mu.Unlock()
		return e.v, e.err
	}
	s.mu.Unlock()
	select {
	case <-e.done:
		return e.v, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readLive runs read on the server's live session.
func (s *server) readLive(ctx context.Context, read func(context.Context, *mcpclient.Session) (any, error)) (any, error) {
	session, err := s.live(ctx)
	if err != nil {
		return nil, err
	}
	return read(ctx, session)
}

// forgetReads empties the read cache; s.mu is held.
func (s *server) forgetReads() {
	s.reads.byKey = nil
	s.reads.gen++
}
