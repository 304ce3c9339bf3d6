package toolreg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// Call describes one tool call, for the approver and the hooks.
type Call struct {
	Name   string // the exposed name, mcp__server__tool
	Server string
	Tool   string // the tool's own name on its server
	// Args are the call's arguments as JSON, whatever the caller passed
	// (a map, a struct, a json.RawMessage, as bridge passes): one form for
	// every approver and hook. Nil when the call has none.
	Args json.RawMessage
	// Annotations are the tool's, as its server listed them (nil if it
	// gave none): hints, from the server, such as ReadOnlyHint, that an
	// approver may weigh without a lookup of its own.
	Annotations *mcpclient.ToolAnnotations

	// For OnToolCall: the arguments' size as JSON, and the result's
	// (its text, data and structured content), in bytes.
	InBytes, OutBytes int
}

// Call routes a call by its exposed name to the server that listed the
// tool, after the approver agrees. It returns an error wrapping
// ErrUnknownTool for a name the last listing did not produce (a first
// listing is made if none was), ErrCallRefused when the approver says no, and
// the session's error when the call could not be made; a tool that ran and
// failed is a Result with IsError and Err set, and a nil error.
func (r *Registry) Call(ctx context.Context, name string, args any) (*Result, error) {
	srv, ref, err := r.route(ctx, name)
	if err != nil {
		return nil, err
	}
	call := Call{Name: name, Server: ref.Server, Tool: ref.Tool, Annotations: r.annotations(name)}
	if args != nil {
		// Encoded once: the approver and the hooks see it so, and it
		// goes to the server as it is.
		raw, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("toolreg: %s: encoding the arguments: %w", name, err)
		}
		call.Args, args = raw, json.RawMessage(raw)
	}
	if r.opts.Approve != nil {
		err := errors.New("the approver failed") // a panicking approver refuses
		r.hook("Approve", func() { err = r.opts.Approve(ctx, call) })
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrCallRefused, name, err)
		}
	}
	start := time.Now()
	res, err := r.callServer(ctx, srv, ref.Tool, args)
	d := time.Since(start)
	hookErr := err
	if err == nil && res.Err != nil {
		hookErr = res.Err
	}
	if r.opts.OnToolCall != nil {
		call.InBytes, call.OutBytes = len(call.Args), res.size()
		r.hook("OnToolCall", func() { r.opts.OnToolCall(call, d, hookErr) })
	}
	if err != nil {
		return nil, err
	}
	res.Duration = d
	return res, nil
}

// route takes an exposed name to its server and the tool's own name:
// starting the server (Options.Lazy), making a first listing, or listing
// again the server a new name points to, as need be.
func (r *Registry) route(ctx context.Context, name string) (*server, Ref, error) {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed { // no listing would name the tool: say why
		return nil, Ref{}, fmt.Errorf("toolreg: %s: %w", name, ErrRegistryClosed)
	}
	// Starting and listing serve every caller, not this call: they get
	// its deadline and cancellation, not its values (a progress callback).
	lctx, cancel := withoutValues(ctx)
	defer cancel()
	list := func(ctx context.Context) error { _, err := r.Tools(ctx); return err }
	if r.opts.Lazy {
		// Start only the servers the name's mcp__<server>__ prefix
		// points to, and list only what is started; a name whose prefix
		// fits no server lists them all, starting every idle one.
		if !r.startFor(lctx, name) {
			list = func(ctx context.Context) error { _, err := r.tools(ctx, false); return err }
		}
	}
	// A name the table lacks may be a tool its server has just added:
	// the servers its mcp__<server>__ prefix names list again, once (a
	// listing in flight is shared), before the call fails.
	again := func(ctx context.Context) error {
		for _, s := range r.serversFor(name) {
			s.relistTools(ctx)
		}
		return list(ctx)
	}
	ref, ok, err := r.lookup(lctx, &r.names, list, again, name)
	if err != nil {
		return nil, Ref{}, err
	}
	if !ok {
		return nil, Ref{}, fmt.Errorf("%w: %q", ErrUnknownTool, name)
	}
	r.mu.Lock()
	srv := r.servers[ref.Server]
	r.mu.Unlock()
	if srv == nil {
		return nil, Ref{}, fmt.Errorf("%w: %q: server %q was removed", ErrUnknownTool, name, ref.Server)
	}
	return srv, ref, nil
}

func (r *Registry) callServer(ctx context.Context, srv *server, tool string, args any) (*Result, error) {
	session, err := srv.live(ctx)
	if err != nil {
		return nil, err
	}
	t := srv.cfg.ToolTimeout
	if t == 0 {
		t = r.opts.ToolTimeout
	}
	if t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	res, err := session.CallTool(ctx, tool, args)
	if err != nil {
		return nil, fmt.Errorf("server %q: tool %q: %w", srv.cfg.Name, tool, err)
	}
	out := &Result{Server: srv.cfg.Name, Tool: tool, Content: res.Content, Structured: res.StructuredContent, IsError: res.IsError, Meta: res.Meta}
	if res.IsError {
		msg := res.Text()
		if msg == "" {
			msg = "the tool reported an error without a message"
		}
		out.Err = &ToolError{Server: srv.cfg.Name, Tool: tool, Message: msg}
	}
	return out, nil
}
