package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// mcpc watch prints what servers say changed: the resources named on the
// command line (subscribed: resources/subscribe in the handshake era, the
// session's subscriptions/listen in the stateless one, which returns once
// the server acknowledged it) and, with --lists or no resource named, the
// tools, prompts and resources lists of every selected server. One line
// per event, or one JSON object per line with --json; --read reads a
// resource again when it changes. It runs until Ctrl-C (exit 130),
// --count events, or --timeout given (exit 0).

// maxQueued bounds the events waiting to be printed: a server that sends
// faster than the terminal takes them loses the oldest, and mcpc says how
// many.
const maxQueued = 256

// watchEvent is one change a server reported.
type watchEvent struct {
	Server   string                       `json:"server"`
	Kind     string                       `json:"kind"`           // "list_changed" or "resource_updated"
	List     string                       `json:"list,omitempty"` // tools, prompts or resources
	URI      string                       `json:"uri,omitempty"`
	Contents []mcpclient.ResourceContents `json:"contents,omitempty"`
	ReadErr  string                       `json:"readError,omitempty"`
}

// watcher gathers the events of every server's session.
type watcher struct {
	lists  bool
	events chan watchEvent
	lost   chan error // a server's session ended

	mu      sync.Mutex
	dropped int
}

// dial wraps a registry's Dial so each server's session reports its
// changes under its name, after whatever the registry listens for.
func (w *watcher) dial(dial func(context.Context, *toolreg.ServerConfig, *mcpclient.Options) (*mcpclient.Session, error)) func(context.Context, *toolreg.ServerConfig, *mcpclient.Options) (*mcpclient.Session, error) {
	return func(ctx context.Context, sc *toolreg.ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		o := *opts
		server := sc.Name
		listChanged, updated := o.OnListChanged, o.OnResourceUpdated
		o.OnListChanged = func(kind string) {
			if listChanged != nil {
				listChanged(kind)
			}
			if w.lists {
				w.add(watchEvent{Server: server, Kind: "list_changed", List: kind})
			}
		}
		o.OnResourceUpdated = func(uri string) {
			if updated != nil {
				updated(uri)
			}
			w.add(watchEvent{Server: server, Kind: "resource_updated", URI: uri})
		}
		return dial(ctx, sc, &o)
	}
}

// add queues an event without blocking the session's notifications: when
// the queue is full the oldest event goes.
func (w *watcher) add(ev watchEvent) {
	for {
		select {
		case w.events <- ev:
			return
		default:
		}
		select {
		case <-w.events:
			w.mu.Lock()
			w.dropped++
			w.mu.Unlock()
		default:
		}
	}
}

// watchTarget is a resource to watch, on its server.
type watchTarget struct{ server, uri string }

func cmdWatch(ctx context.Context, e *env, args []string) error {
	targets := make([]watchTarget, 0, len(args))
	for _, a := range args {
		server, uri, err := e.resourceTarget(a)
		if err != nil {
			return err
		}
		targets = append(targets, watchTarget{server, uri})
	}
	w := &watcher{lists: e.cfg.lists || len(args) == 0, events: make(chan watchEvent, maxQueued), lost: make(chan error, 1)}
	e.opts.Dial = w.dial(e.opts.Dial)
	e.opts.OnDisconnect = w.disconnected
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	for _, s := range reg.Servers() {
		if s.State != toolreg.StateConnected && s.State != toolreg.StateDisabled && s.State != toolreg.StateUnapproved {
			return errors.New(errorLine(s))
		}
	}
	if err := subscribe(ctx, reg, targets); err != nil {
		return err
	}
	if e.cfg.terminal && !e.cfg.json {
		what := fmt.Sprintf("%d resources", len(targets))
		if w.lists {
			what += " and the lists"
		}
		fmt.Fprintf(e.stderr, "Watching %s; Ctrl-C ends.\n", what)
	}
	return w.run(ctx, e, reg)
}

// disconnected is the registry's OnDisconnect: a server lost ends the
// watch (Close's own ends do not).
func (w *watcher) disconnected(server string, err error) {
	if errors.Is(err, toolreg.ErrRegistryClosed) {
		return
	}
	select {
	case w.lost <- fmt.Errorf("server %q: %w", server, err):
	default:
	}
}

// subscribe subscribes to each target, returning once every server has
// taken its subscription (in the stateless era, acknowledged it).
func subscribe(ctx context.Context, reg *toolreg.Registry, targets []watchTarget) error {
	for _, t := range targets {
		sess, err := reg.Session(ctx, t.server)
		if err == nil {
			err = sess.Subscribe(ctx, t.uri)
		}
		if err != nil {
			return fmt.Errorf("watching %s of server %q: %w", t.uri, t.server, err)
		}
	}
	return nil
}

// run prints events until the count, the deadline or the interrupt.
func (w *watcher) run(ctx context.Context, e *env, reg *toolreg.Registry) error {
	var deadline <-chan time.Time
	if e.cfg.timeoutSet {
		t := time.NewTimer(e.cfg.timeout)
		defer t.Stop()
		deadline = t.C
	}
	for n := 0; e.cfg.count <= 0 || n < e.cfg.count; n++ {
		select {
		case ev := <-w.events:
			w.report(e)
			if ev.Kind == "resource_updated" && e.cfg.read {
				if res, err := reg.ReadResource(ctx, ev.Server, ev.URI); err != nil {
					ev.ReadErr = oneLine(err.Error())
				} else {
					ev.Contents = res.Contents
				}
			}
			if err := w.print(e, ev); err != nil {
				return err
			}
		case err := <-w.lost:
			return err
		case <-deadline:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// report says, on stderr, how many events were dropped since last time.
func (w *watcher) report(e *env) {
	w.mu.Lock()
	n := w.dropped
	w.dropped = 0
	w.mu.Unlock()
	if n > 0 {
		fmt.Fprintf(e.stderr, "(%d earlier events dropped: they came faster than they were printed)\n", n)
	}
}

// print writes one event: a line, or a JSON object on one line.
func (w *watcher) print(e *env, ev watchEvent) error {
	if e.out.json {
		b, err := marshal(ev)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(e.out.w, "%s\n", b)
		return err
	}
	switch ev.Kind {
	case "list_changed":
		fmt.Fprintf(e.out.w, "[%s] %s list changed\n", clean(ev.Server), ev.List)
	default:
		fmt.Fprintf(e.out.w, "[%s] updated %s\n", clean(ev.Server), clean(ev.URI))
	}
	if ev.ReadErr != "" {
		fmt.Fprintf(e.out.w, "  (could not read it: %s)\n", ev.ReadErr)
	}
	for i := range ev.Contents {
		printResource(e.out.w, &ev.Contents[i])
	}
	return nil
}
