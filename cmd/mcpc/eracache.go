package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// The era cache spares a handshake-era server the server/discover probe on
// every command. Such a server may not answer a method it does not know at
// all, and then each mcpc command paid the probe's whole timeout (5 s)
// before falling back to initialize. mcpc remembers, per configured server
// (its name and how it is started), that it spoke the handshake era, and
// next time connects to it in that era (mcpclient.EraHandshake): initialize
// goes out at once, offering the newest handshake version, and the server
// still negotiates its own version down (2025-06-18, say), as the spec's
// version negotiation lets it. Only the era is remembered, never a
// version. An entry lives a week, so a server that moves to the stateless
// era is probed again; one that refuses the handshake while remembered
// (a stateless-only server now) is forgotten and probed in the same run.

const (
	eraCacheTTL  = 7 * 24 * time.Hour
	eraCacheMax  = 256     // entries; the oldest go first
	eraCacheSize = 1 << 20 // bytes read at most
)

// eraCache is the cache file's contents: when each server was last seen
// speaking the handshake era, by its fingerprint.
type eraCache struct {
	path string
	seen map[string]time.Time

	mu      sync.Mutex        // servers are dialed in parallel
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

// pin marks each server the cache knows as handshake-era for dial,
// unless its config or --protocol already pins a version.
func (c *eraCache) pin(conf *toolreg.Config, protocol string) {
	if protocol != "" {
		return
	}
	for _, sc := range conf.Servers {
		fp := fingerprint(sc)
		if _, ok := c.seen[fp]; ok && sc.ProtocolVersion == "" {
			c.pinned[sc.Name] = fp
		}
	}
}

// dialFunc is toolreg's Options.Dial.
type dialFunc = func(context.Context, *toolreg.ServerConfig, *mcpclient.Options) (*mcpclient.Session, error)

// dial wraps a registry's Dial: a server marked by pin connects in the
// handshake era, with no probe and no version pinned. If it refuses the
// handshake, it is forgotten and dialed again as one the cache never saw.
func (c *eraCache) dial(dial dialFunc) dialFunc {
	return func(ctx context.Context, sc *toolreg.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		c.mu.Lock()
		_, pinned := c.pinned[sc.Name]
		c.mu.Unlock()
		if !pinned || opts.ProtocolVersion != "" || opts.Era != 0 {
			return dial(ctx, sc, opts)
		}
		handshake := *opts
		handshake.Era = mcpclient.EraHandshake
		s, err := dial(ctx, sc, &handshake)
		if err == nil || ctx.Err() != nil || !refusedHandshake(err) {
			return s, err
		}
		c.mu.Lock()
		delete(c.pinned, sc.Name) // record then sees a run that probed
		c.mu.Unlock()
		return dial(ctx, sc, opts)
	}
}

// refusedHandshake reports whether err is a server's refusal of
// initialize (an error answer, or a version it does not speak) rather
// than a server that did not start or answer.
func refusedHandshake(err error) bool {
	var rpcErr *jsonrpc.Error
	return errors.As(err, &rpcErr) || errors.Is(err, mcpclient.ErrUnsupportedVersion)
}

// record notes which servers of the run left the probe unanswered, and
// forgets those that answered it or failed to start while pinned.
func (c *eraCache) record(reg *toolreg.Registry, conf *toolreg.Config) {
	c.mu.Lock()
	defer c.mu.Unlock()
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
