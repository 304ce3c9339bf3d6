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
//
// The server picks the cursors and the ttls, so what the cache holds is
// bounded by the client: at most maxCachedPages pages and maxCachedBytes
// bytes of them. Past either, the stale pages go first, then those that
// would go stale soonest; a page larger than the whole budget is not kept.

const (
	maxCachedPages = 1000
	maxCachedBytes = 16 << 20
)

type listCache struct {
	mu    sync.Mutex
	pages map[string]cachedPage
	bytes int // of the pages' raw results
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
		s.cache.store(key, cachedPage{raw: r.raw, expires: time.Now().Add(time.Duration(env.TTLMs) * time.Millisecond)})
	}
	return nil
}

// store keeps page under key, within the cache's bounds.
func (c *listCache) store(key string, page cachedPage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(page.raw) > maxCachedBytes {
		return
	}
	if c.pages == nil {
		c.pages = map[string]cachedPage{}
	}
	c.drop(key)
	now := time.Now()
	for len(c.pages) >= maxCachedPages || c.bytes+len(page.raw) > maxCachedBytes {
		c.drop(c.firstToGo(now))
	}
	c.pages[key] = page
	c.bytes += len(page.raw)
}

// firstToGo is the key of a stale page if there is one, else of the page
// that goes stale soonest.
func (c *listCache) firstToGo(now time.Time) string {
	first, soonest := "", time.Time{}
	for k, p := range c.pages {
		if !p.expires.After(now) {
			return k
		}
		if first == "" || p.expires.Before(soonest) {
			first, soonest = k, p.expires
		}
	}
	return first
}

// drop removes the page under key, if any.
func (c *listCache) drop(key string) {
	if p, ok := c.pages[key]; ok {
		c.bytes -= len(p.raw)
		delete(c.pages, key)
	}
}

// forget drops the cached pages of a list that changed ("tools/list" …).
func (c *listCache) forget(method string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.pages {
		if len(k) > len(method) && k[:len(method)] == method && k[len(method)] == 0 {
			c.drop(k)
		}
	}
}
