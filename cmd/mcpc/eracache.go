package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// The era cache spares a handshake-era server the server/discover probe on
// every command. Such a server may not answer a method it does not know at
// all, and then each mcpc command paid the probe's whole timeout (5 s)
// before falling back to initialize. mcpc remembers, per configured server
// (its name and how it is started), that it spoke the handshake era, and
// next time pins the newest handshake version for it: initialize goes out
// at once, and the server still negotiates its own version down. An entry
// lives a week, so a server that moves to the stateless era is probed
// again; one whose start fails while pinned is forgotten at once.

const (
	eraCacheTTL  = 7 * 24 * time.Hour
	eraCacheMax  = 256     // entries; the oldest go first
	eraCacheSize = 1 << 20 // bytes read at most
)

// eraCache is the cache file's contents: when each server was last seen
// speaking the handshake era, by its fingerprint.
type eraCache struct {
	path    string
	seen    map[string]time.Time
	pinned  map[string]string // server name -> fingerprint, for this run
	changed bool
}

// eraCacheFile is where the cache lives: the user's cache directory.
func eraCacheFile() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "plainmcp", "eras.json")
}

// loadEraCache reads the cache; a missing, unreadable or oversized file
// is an empty cache, never an error: it only saves time.
func loadEraCache(path string) *eraCache {
	c := &eraCache{path: path, seen: map[string]time.Time{}, pinned: map[string]string{}}
	if path == "" {
		return c
	}
	f, err := os.Open(path)
	if err != nil {
		return c
	}
	defer f.Close()
	var seen map[string]time.Time
	if json.NewDecoder(io.LimitReader(f, eraCacheSize)).Decode(&seen) == nil {
		for k, t := range seen {
			if time.Since(t) < eraCacheTTL {
				c.seen[k] = t
			}
		}
	}
	return c
}

// pin gives each server the cache knows as handshake-era the newest
// handshake version, unless its config or --protocol already pins one.
func (c *eraCache) pin(conf *toolreg.Config, protocol string) {
	if protocol != "" {
		return
	}
	for _, sc := range conf.Servers {
		fp := fingerprint(sc)
		if _, ok := c.seen[fp]; ok && sc.ProtocolVersion == "" {
			sc.ProtocolVersion = mcpclient.LatestHandshakeVersion
			c.pinned[sc.Name] = fp
		}
	}
}

// record notes which servers of the run left the probe unanswered, and
// forgets those that answered it or failed to start while pinned.
func (c *eraCache) record(reg *toolreg.Registry, conf *toolreg.Config) {
	for _, st := range reg.Servers() {
		sc := conf.Server(st.Name)
		if sc == nil {
			continue
		}
		fp := fingerprint(sc)
		switch {
		case st.State == toolreg.StateConnected && c.pinned[st.Name] == "" && unanswered(reg, st.Name):
			c.seen[fp], c.changed = time.Now(), true
		case st.State == toolreg.StateConnected && c.pinned[st.Name] == "",
			st.State == toolreg.StateFailed && c.pinned[st.Name] != "":
			if _, ok := c.seen[fp]; ok {
				delete(c.seen, fp)
				c.changed = true
			}
		}
	}
}

// unanswered reports whether the connected server name left the probe
// unanswered.
func unanswered(reg *toolreg.Registry, name string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s, err := reg.Session(ctx, name) // connected: no start, no wait
	return err == nil && s.DiscoverUnanswered()
}

// save writes the cache when it changed, at most eraCacheMax entries, by
// way of a temporary file so that a concurrent reader never sees half.
func (c *eraCache) save() {
	if !c.changed || c.path == "" {
		return
	}
	for len(c.seen) > eraCacheMax {
		oldest := ""
		for k, t := range c.seen {
			if oldest == "" || t.Before(c.seen[oldest]) {
				oldest = k
			}
		}
		delete(c.seen, oldest)
	}
	data, err := json.Marshal(c.seen)
	if err != nil || os.MkdirAll(filepath.Dir(c.path), 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.path), "eras-*.json")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), c.path) != nil {
		os.Remove(tmp.Name())
	}
}

// fingerprint names a configured server by what makes it the same server
// next time: its name, transport, command line and URL (never its
// environment or headers, which may hold secrets).
func fingerprint(sc *toolreg.ServerConfig) string {
	h := sha256.Sum256([]byte(strings.Join(append([]string{sc.Name, sc.Type, sc.Command, sc.URL}, sc.Args...), "\x00")))
	return hex.EncodeToString(h[:12])
}
