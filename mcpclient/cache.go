package mcpclient

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// In the stateless era list results may say how long they stay fresh
// (ttlMs) and for whom (cacheScope: "public", or "private" to one
// authorization context). A session is one authorization context, so it
// keeps each page — keyed by method and cursor, never shared across either
// — until it goes stale or the server says the list changed.

type listCache struct {
	mu    sync.Mutex
	pages map[string]cachedPage
}

type cachedPage struct {
	raw     json.RawMessage
	expires time.Time
}

func cacheKey(method, cursor string) string { return method + "\x00" + cursor }

// listPage fetches one page of a list into page, from the cache when a
// fresh copy is there.
func (s *Session) listPage(ctx context.Context, method, cursor string, page enveloped) error {
	if s.Era() != EraStateless {
		return s.call(ctx, method, pageParams{cursor}, page)
	}
	key := cacheKey(method, cursor)
	s.cache.mu.Lock()
	cached, ok := s.cache.pages[key]
	s.cache.mu.Unlock()
	if ok && time.Now().Before(cached.expires) {
		return json.Unmarshal(cached.raw, page)
	}
	r, err := newRequest(method, pageParams{cursor}, true)
	if err != nil {
		return err
	}
	defer r.release()
	if err := s.send(ctx, r, page); err != nil {
		return err
	}
	env := page.envelope()
	if env.TTLMs > 0 && (env.CacheScope == "" || env.CacheScope == "public" || env.CacheScope == "private") {
		s.cache.mu.Lock()
		if s.cache.pages == nil {
			s.cache.pages = map[string]cachedPage{}
		}
		s.cache.pages[key] = cachedPage{raw: r.raw, expires: time.Now().Add(time.Duration(env.TTLMs) * time.Millisecond)}
		s.cache.mu.Unlock()
	}
	return nil
}

// forget drops the cached pages of a list that changed ("tools/list" …).
func (c *listCache) forget(method string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.pages {
		if len(k) > len(method) && k[:len(method)] == method && k[len(method)] == 0 {
			delete(c.pages, k)
		}
	}
}
