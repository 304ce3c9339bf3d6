package mcpclient

import (
	"fmt"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/paramheader"
)

// The server picks the cursors and the ttls: a server that hands out a
// new cursor on every listing, each page fresh for an hour, must not grow
// the cache without end. The oldest page goes first, a stale one before
// any, and a page larger than the whole budget is not kept.
func TestListCacheIsBounded(t *testing.T) {
	var c listCache
	hour := time.Now().Add(time.Hour)
	for i := range maxCachedPages + 500 {
		c.store(cacheKey("tools/list", fmt.Sprint(i)), cachedPage{raw: []byte(`{}`), expires: hour.Add(time.Duration(i))})
	}
	if len(c.pages) != maxCachedPages || c.bytes != 2*maxCachedPages {
		t.Fatalf("%d pages of %d bytes cached, want %d of %d", len(c.pages), c.bytes, maxCachedPages, 2*maxCachedPages)
	}
	if _, ok := c.pages[cacheKey("tools/list", "499")]; ok {
		t.Error("kept a page that would go stale before those it let go")
	}
	if _, ok := c.pages[cacheKey("tools/list", fmt.Sprint(maxCachedPages+499))]; !ok {
		t.Error("did not keep the newest page")
	}

	c.store(cacheKey("prompts/list", "stale"), cachedPage{raw: []byte(`{}`), expires: time.Now().Add(-time.Second)})
	c.store(cacheKey("prompts/list", "next"), cachedPage{raw: []byte(`{}`), expires: hour})
	if _, ok := c.pages[cacheKey("prompts/list", "stale")]; ok {
		t.Error("kept a stale page over a fresh one")
	}
	if _, ok := c.pages[cacheKey("tools/list", "501")]; !ok {
		t.Error("let a fresh page go while a stale one was there")
	}

	big := make([]byte, maxCachedBytes/3)
	for i := range 4 {
		c.store(cacheKey("resources/list", fmt.Sprint(i)), cachedPage{raw: big, expires: hour.Add(time.Hour)})
	}
	if c.bytes > maxCachedBytes {
		t.Errorf("%d bytes cached, the bound is %d", c.bytes, maxCachedBytes)
	}
	if _, ok := c.pages[cacheKey("resources/list", "3")]; !ok {
		t.Error("did not keep the newest large page")
	}
	c.store(cacheKey("resources/list", "huge"), cachedPage{raw: make([]byte, maxCachedBytes+1), expires: hour})
	if _, ok := c.pages[cacheKey("resources/list", "huge")]; ok {
		t.Error("kept a page larger than the whole budget")
	}

	c.forget("resources/list")
	sum := 0
	for _, p := range c.pages {
		sum += len(p.raw)
	}
	if sum != c.bytes {
		t.Errorf("the cache counts %d bytes, its pages hold %d", c.bytes, sum)
	}
}

// The tools' header and repeat-safety memos are the server's to fill too:
// only tools with something to remember take room, and there is a bound.
func TestToolMemosAreBounded(t *testing.T) {
	var th toolHeaders
	h := []paramheader.Header{{Name: "Region", Path: []string{"region"}}}
	th.set("plain", nil)
	th.setRepeatable("plain", false)
	if len(th.tools) != 0 || len(th.repeatable) != 0 {
		t.Errorf("a tool with nothing to remember took room: %d, %d", len(th.tools), len(th.repeatable))
	}
	for i := range maxRememberedTools + 10 {
		name := fmt.Sprint("t", i)
		th.set(name, h)
		th.setRepeatable(name, true)
	}
	if len(th.tools) != maxRememberedTools || len(th.repeatable) != maxRememberedTools {
		t.Errorf("remembered %d and %d tools, the bound is %d", len(th.tools), len(th.repeatable), maxRememberedTools)
	}
	last := fmt.Sprint("t", maxRememberedTools+9)
	if th.get(last) == nil || !th.isRepeatable(last) {
		t.Error("forgot the tool listed last")
	}
	th.set(last, nil)
	th.setRepeatable(last, false)
	if th.get(last) != nil || th.isRepeatable(last) {
		t.Error("a tool listed again without headers kept its old ones")
	}
}
