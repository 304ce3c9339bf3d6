package toolreg

import (
	"context"
	"errors"
	"fmt"

	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/logging"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// Options configures a Registry. A nil *Options is valid.
type Options struct {
	// Session is the base of every server's session options: the host's
	// handlers (sampling, elicitation, roots), callbacks and client info.
	// OnListChanged is wrapped so the registry also hears of changes.
	// Tasks are the host's to ask for (Session.Tasks: &task.Options{}):
	// without them a tool that must run as a task is refused by its
	// server, and the host links none of mcpclient/task.
	Session *mcpclient.Options

	// StartupTimeout bounds connecting to one server when its config gives
	// no timeout. Zero means 30s.
	StartupTimeout time.Duration

	// ToolTimeout bounds each tool call of a server whose config gives no
	// toolTimeout: its whole time, progress or not, as Claude Code reads
	// MCP_TOOL_TIMEOUT (it is the call's deadline). Zero means none: the
	// session's timeouts, which progress restarts (see mcpclient.Options).
	ToolTimeout time.Duration

	// Lazy starts a server only when something needs it: New starts
	// none, a Call starts the server its name points to (and lists only
	// what is started), and Tools, Prompts, Resources, Groups and the like
	// start every server. A host with many configured servers that uses a
	// few pays for those few. Servers reports the others as StateIdle.
	Lazy bool

	// Strict makes New fail if any enabled server fails to connect; by
	// default the registry keeps the servers that came up and reports the
	// others in Servers.
	Strict bool

	// Reserved are the host's own tool names; no server tool is exposed
	// under one of them (compared without regard to case).
	Reserved []string

	// Approve, if set, is consulted before every call; an error refuses
	// it and is returned to the caller.
	Approve func(ctx context.Context, call Call) error

	// OnConnect, OnDisconnect and OnToolCall report what happens. They
	// run with no lock held and outside every connection attempt and
	// listing, after the state they report is committed, so they may call
	// any method of the registry. A hook that panics is logged and
	// otherwise ignored.
	//
	// OnConnect hears of a server ready for use, once it is in Servers:
	// the status has its tool, prompt and resource counts (listed for the
	// hook, in its turn), transport and protocol version. OnDisconnect
	// hears why a server's session ended or did not start: the failure,
	// or, for an end the host asked for, ErrRemoved (Remove) or ErrRegistryClosed
	// (Close), which errors.Is tells from a failure. A server whose Add
	// failed is heard of by neither. The two are delivered one at a time,
	// in the order things happened, from a goroutine of the registry's; a
	// start or reconnect never waits for them, and New, Add, Remove and
	// Close return once the hooks of what they did have run. OnToolCall
	// hears of every call, on the caller's goroutine, with its duration,
	// error and size in and out.
	OnConnect    func(status ServerStatus)
	OnDisconnect func(server string, err error)
	OnToolCall   func(call Call, d time.Duration, err error)

	// Dial opens the session of every server; nil starts stdio servers
	// (their command, never through a shell) and no other kind. Package
	// toolreg/remote's Dialer dials http and sse servers too (OAuth,
	// headersHelper), so that only a host that wants the network links
	// it. A Dial of the host's own serves in-process servers or custom
	// transports, and may leave the others to a remote.Dialer's Dial,
	// which starts stdio servers as nil does. opts are
	// the session options the registry made for this server; pass them
	// on to mcpclient.Connect. An error that is (or wraps) a
	// *NeedsAuthError puts the server in StateNeedsAuth.
	Dial func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error)

	// WrapStream, if set, wraps each server's stream, whatever its
	// transport, before the session uses it: to trace a server's frames
	// under its name, say. It replaces Session.WrapStream.
	WrapStream func(server string, stream jsonrpc.Stream) jsonrpc.Stream

	// Logger receives what the registry reports; nil is silent.
	// A *slog.Logger serves: any value with its Debug, Info, Warn and
	// Error methods does (internal/logging says why this is no *slog.Logger).
	Logger logging.Logger
}

// Registry holds one MCP session per configured server and exposes all
// their tools under one namespace. All methods are safe for concurrent use.
type Registry struct {
	opts Options
	log  logging.Logger

	mu          sync.Mutex
	servers     map[string]*server
	order       []string
	names       *nameTable     // tools, from the last listing
	promptNames *nameTable     // prompts, from the last listing
	kept        map[string]any // what an extension package keeps until the servers change
	named       *namedTools    // the last naming of tools
	search      toolIndex      // its own lock: searches of the named tools
	renamed     map[Ref]string // renames already logged
	closed      bool
	hooks       hookQueue
}

// maxConcurrentStarts bounds the servers New starts at once: a config of
// a thousand servers must not start a thousand processes (or open a
// thousand connections) in the same instant.
const maxConcurrentStarts = 32

// New connects every enabled server of cfg in parallel, at most 32 at
// once, each within its own startup timeout (ctx bounds them all), and
// lists each one's tools, so that Servers reports their number and the
// first Tools is served from the cache. One server's failure never
// touches another's: unless opts.Strict, the registry keeps the servers
// that came up and reports the rest in Servers.
func New(ctx context.Context, cfg *Config, opts *Options) (*Registry, error) {
	r := &Registry{servers: map[string]*server{}}
	if opts != nil {
		r.opts = *opts
	}
	r.log = logging.OrDiscard(r.opts.Logger)
	var wg sync.WaitGroup
	errs := make([]error, len(cfg.Servers))
	starting := make(chan struct{}, maxConcurrentStarts)
	for i, sc := range cfg.Servers {
		srv := r.newServer(sc, true)
		r.servers[sc.Name] = srv
		r.order = append(r.order, sc.Name)
		if off(sc) || r.opts.Lazy {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			starting <- struct{}{}
			defer func() { <-starting }()
			listErr, err := srv.start(ctx)
			errs[i] = errors.Join(err, listErr) // strict mode wants a listing too
		}()
	}
	wg.Wait()
	r.hooks.settle() // the servers' OnConnect and OnDisconnect have run
	if r.opts.Strict {
		if err := errors.Join(errs...); err != nil {
			r.Close()
			return nil, err
		}
	}
	return r, nil
}

// Add connects one more server, lists its tools and adds it. If it cannot
// connect or list within its startup timeout, the registry is left as it
// was and the error is returned.
func (r *Registry) Add(ctx context.Context, sc *ServerConfig) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return fmt.Errorf("toolreg: adding %q: the registry is closed", sc.Name)
	}
	if _, dup := r.servers[sc.Name]; dup {
		r.mu.Unlock()
		return fmt.Errorf("toolreg: adding %q: a server of that name exists", sc.Name)
	}
	r.mu.Unlock()
	// Its hooks are held until it is in the registry, and dropped if it
	// never is: no OnConnect for a server that Servers never shows.
	srv := r.newServer(sc, false)
	listErr, err := srv.start(ctx)
	if err = errors.Join(err, listErr); err != nil {
		srv.close(nil) // a server added is one that listed: nothing of it stays
		return err
	}
	r.mu.Lock()
	if _, dup := r.servers[sc.Name]; dup || r.closed {
		r.mu.Unlock()
		srv.close(nil)
		return fmt.Errorf("toolreg: adding %q: the registry changed meanwhile", sc.Name)
	}
	r.servers[sc.Name] = srv
	r.order = append(r.order, sc.Name)
	r.names, r.promptNames, r.kept, r.named = nil, nil, nil, nil
	r.mu.Unlock()
	r.hooks.await(srv.publish()...)
	return nil
}

// Remove closes a server's session and removes it.
func (r *Registry) Remove(name string) error {
	r.mu.Lock()
	srv, ok := r.servers[name]
	if ok {
		delete(r.servers, name)
		for i, n := range r.order {
			if n == name {
				r.order = append(r.order[:i:i], r.order[i+1:]...)
				break
			}
		}
		r.names, r.promptNames, r.kept, r.named = nil, nil, nil, nil
	}
	r.mu.Unlock()
	if !ok {
		return fmt.Errorf("toolreg: no server %q", name)
	}
	r.hooks.await(srv.close(ErrRemoved))
	return nil
}

// Close closes every session, in parallel, each bounded by its transport's
// own shutdown. It is idempotent.
func (r *Registry) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	servers := make([]*server, 0, len(r.servers))
	for _, s := range r.servers {
		servers = append(servers, s)
	}
	r.mu.Unlock()
	var wg sync.WaitGroup
	evs := make([]*hookEvent, len(servers))
	for i, s := range servers {
		wg.Add(1)
		go func() { defer wg.Done(); evs[i] = s.close(ErrRegistryClosed) }()
	}
	wg.Wait()
	r.hooks.await(evs...) // each server's OnDisconnect, and what came before
	return nil
}

// snapshot returns the servers in config order.
func (r *Registry) snapshot() []*server {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*server, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, r.servers[n])
	}
	return out
}

// hook runs a host hook, containing its panics.
func (r *Registry) hook(name string, fn func()) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("toolreg: a hook panicked", "hook", name, "panic", p)
		}
	}()
	fn()
}
