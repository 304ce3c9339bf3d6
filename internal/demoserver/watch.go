package demoserver

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// With Options.Tick the server changes on a clock, for clients that watch
// it: every tick the counter resource counts up and the dynamic tool comes
// or goes. Handshake-era clients hear of it as that era says
// (notifications/tools/list_changed to every client,
// notifications/resources/updated to those that subscribed); stateless
// clients through their subscriptions/listen requests, each notification
// tagged with its subscription's id.

// counterURI is the resource the clock counts up.
const counterURI = "demo://data/counter"

var counterItem = mustJSON(resourceDef{URI: counterURI, Name: "counter", Title: "Counter",
	Description: "Counts the server's ticks (mcp-demo-server -tick).", MimeType: "text/plain"})

// subscriptionIDKey names, in a notification's _meta, the listen request it
// belongs to (2026-07-28).
const subscriptionIDKey = "io.modelcontextprotocol/subscriptionId"

// listenFilter is what a subscriptions/listen request opts in to.
type listenFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// listeners are a session's open listen requests.
type listeners struct {
	mu   sync.Mutex
	subs map[*listenSub]struct{}
}

type listenSub struct {
	id     jsonrpc.ID
	filter listenFilter
}

// listening returns how many subscriptions/listen requests are open.
func (ss *session) listening() int {
	ss.listeners.mu.Lock()
	defer ss.listeners.mu.Unlock()
	return len(ss.listeners.subs)
}

// maxListenURIs bounds the resources one listen request may name.
const maxListenURIs = 256

// listen holds a subscriptions/listen request open until the client ends
// it: first the acknowledgement, naming what the server agreed to (the
// resources it has, the lists it offers), then the notifications.
func (ss *session) listen(ctx context.Context, id jsonrpc.ID, params json.RawMessage) (any, error) {
	var p struct {
		Notifications listenFilter `json:"notifications"`
	}
	if err := decodeParams("subscriptions/listen", params, &p); err != nil {
		return nil, err
	}
	f := p.Notifications
	if len(f.ResourceSubscriptions) > maxListenURIs {
		return nil, invalidParams("subscriptions/listen: at most %d resources", maxListenURIs)
	}
	f.PromptsListChanged = false // the prompts never change
	f.ResourceSubscriptions = slices.DeleteFunc(slices.Clone(f.ResourceSubscriptions), func(uri string) bool {
		return ss.readable(uri) == nil
	})
	ss.notifyClient(ctx, "notifications/subscriptions/acknowledged", map[string]any{
		"_meta":         map[string]any{subscriptionIDKey: id},
		"notifications": f,
	})
	sub := &listenSub{id: id, filter: f}
	l := &ss.listeners
	l.mu.Lock()
	if l.subs == nil {
		l.subs = map[*listenSub]struct{}{}
	}
	l.subs[sub] = struct{}{}
	l.mu.Unlock()
	ss.stream.wake() // a drain after the client's EOF need not wait for this one
	defer func() {
		l.mu.Lock()
		delete(l.subs, sub)
		l.mu.Unlock()
	}()
	<-ctx.Done()
	return nil, ctx.Err()
}

// tick runs the clock until the connection ends.
func (ss *session) tick(every time.Duration) {
	defer ss.handlers.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ss.conn.Done():
			return
		case <-t.C:
		}
		ss.mu.Lock()
		ss.counter++
		ss.dynamicTool = !ss.dynamicTool
		initialized, subscribed := ss.initialized, ss.subscriptions[counterURI]
		ss.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if initialized {
			ss.notifyClient(ctx, "notifications/tools/list_changed", nil)
			if subscribed {
				ss.notifyClient(ctx, "notifications/resources/updated", map[string]string{"uri": counterURI})
			}
		}
		ss.tellListeners(ctx)
		cancel()
	}
}

// tellListeners sends each open listen request what it asked for.
func (ss *session) tellListeners(ctx context.Context) {
	ss.listeners.mu.Lock()
	subs := make([]*listenSub, 0, len(ss.listeners.subs))
	for s := range ss.listeners.subs {
		subs = append(subs, s)
	}
	ss.listeners.mu.Unlock()
	for _, s := range subs {
		meta := map[string]any{subscriptionIDKey: s.id}
		if s.filter.ToolsListChanged {
			ss.notifyClient(ctx, "notifications/tools/list_changed", map[string]any{"_meta": meta})
		}
		if slices.Contains(s.filter.ResourceSubscriptions, counterURI) {
			ss.notifyClient(ctx, "notifications/resources/updated", map[string]any{"_meta": meta, "uri": counterURI})
		}
	}
}

// readable returns the contents of uri: a demo resource, a skill's file,
// or the counter when the clock runs; nil if there is none.
func (ss *session) readable(uri string) any {
	if uri == counterURI && ss.srv.tick > 0 {
		ss.mu.Lock()
		n := ss.counter
		ss.mu.Unlock()
		return textContents{URI: uri, MimeType: "text/plain", Text: strconv.Itoa(n)}
	}
	if c := contents(uri); c != nil {
		return c
	}
	return ss.srv.skills.contents(uri)
}
