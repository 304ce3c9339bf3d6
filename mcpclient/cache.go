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

type cacheHints struct {
	TTLMs      int64  `json:"ttlMs"`
	CacheScope string `json:"cacheScope"`
}

func cacheKey(method, cursor string) string { return method + "\x00" + cursor }

// listPage fetches one page of a list, from the cache when a fresh copy is
// there.
func (s *Session) listPage(ctx context.Context, method, cursor string, result any) error {
	if s.Era() != EraStateless {
		return s.call(ctx, method, pageParams{cursor}, result)
	}
	key := cacheKey(method, cursor)
	s.cache.mu.Lock()
	page, ok := s.cache.pages[key]
	s.cache.mu.Unlock()
	if ok && time.Now().Before(page.expires) {
		return json.Unmarshal(page.raw, result)
	}
	var raw json.RawMessage
	if err := s.call(ctx, method, pageParams{cursor}, &raw); err != nil {
		return err
	}
	var hints cacheHints
	if json.Unmarshal(raw, &hints) == nil && hints.TTLMs > 0 && (hints.CacheScope == "" || hints.CacheScope == "public" || hints.CacheScope == "private") {
		s.cache.mu.Lock()
		if s.cache.pages == nil {
			s.cache.pages = map[string]cachedPage{}
		}
		s.cache.pages[key] = cachedPage{raw: raw, expires: time.Now().Add(time.Duration(hints.TTLMs) * time.Millisecond)}
		s.cache.mu.Unlock()
	}
	return json.Unmarshal(raw, result)
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
