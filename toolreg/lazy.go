package toolreg

import (
	"context"
	"strings"
)

// startFor starts the idle servers an exposed tool name can belong to (its
// mcp__<server>__ prefix), and reports whether it found none, so that the
// caller should start everything.
func (r *Registry) startFor(ctx context.Context, name string) (none bool) {
	matched := r.serversFor(name)
	started := false
	for _, s := range matched {
		s.mu.Lock()
		idle := s.state == StateIdle
		s.mu.Unlock()
		if idle {
			s.start(ctx)
			started = true
		}
	}
	if started {
		r.mu.Lock()
		r.names, r.named = nil, nil // name again, with what is started now
		r.mu.Unlock()
	}
	return len(matched) == 0
}

// serversFor returns the enabled servers whose mcp__<server>__ prefix an
// exposed tool name begins with.
func (r *Registry) serversFor(name string) []*server {
	var matched []*server
	for _, s := range r.snapshot() {
		prefix := string(fullName(nil, Ref{Server: s.cfg.Name}))
		if len(prefix) > keepLen {
			prefix = prefix[:keepLen] // a long name keeps only this much before its hash
		}
		if strings.HasPrefix(name, prefix) && !off(s.cfg) {
			matched = append(matched, s)
		}
	}
	return matched
}

// withoutValues returns a context that ends when ctx does, with its
// deadline, and carries none of its values.
func withoutValues(ctx context.Context) (context.Context, context.CancelFunc) {
	detached, cancel := context.WithCancel(context.Background())
	if d, ok := ctx.Deadline(); ok {
		detached, cancel = context.WithDeadline(context.Background(), d)
	}
	stop := context.AfterFunc(ctx, cancel)
	return detached, func() { stop(); cancel() }
}
