package toolreg

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// Tool is one tool as the registry exposes it.
type Tool struct {
	Name   string          // the exposed name, mcp__<server>__<tool>
	Server string          // the server that offers it
	Tool   *mcpclient.Tool // as the server listed it (Tool.Name is its own name)
}

// Tools lists the tools of every connected server, fetching again only
// the listings that went stale (a tools/list_changed, a reconnect), and
// names them. The names route later calls: Call never parses a name. A
// server that cannot list contributes the tools it listed last, if any, so
// a call can reconnect it (see Servers for its state); the error is
// non-nil only when ctx ends.
func (r *Registry) Tools(ctx context.Context) ([]Tool, error) {
	servers := r.snapshot()
	lists, err := listAll(ctx, r, servers, (*server).listTools)
	if err != nil {
		return nil, err
	}
	var refs []Ref
	for i, s := range servers {
		for _, t := range lists[i] {
			refs = append(refs, Ref{Server: s.cfg.Name, Tool: t.Name})
		}
	}
	names := BuildNames(refs, r.opts.Reserved)
	r.mu.Lock()
	r.names = names
	r.mu.Unlock()
	var out []Tool
	for i, s := range servers {
		for _, t := range lists[i] {
			name, _ := names.Name(Ref{Server: s.cfg.Name, Tool: t.Name})
			out = append(out, Tool{Name: name, Server: s.cfg.Name, Tool: t})
		}
	}
	return out, nil
}

// Call routes a call by its exposed name to the server that listed the
// tool, after the approver agrees. It returns an error wrapping
// ErrUnknownTool for a name the last listing did not produce (a first
// listing is made if none was), ErrRefused when the approver says no, and
// the session's error when the call could not be made; a tool that ran and
// failed is a Result with IsError and Err set, and a nil error.
func (r *Registry) Call(ctx context.Context, name string, args any) (*Result, error) {
	r.mu.Lock()
	names := r.names
	r.mu.Unlock()
	if names == nil {
		if _, err := r.Tools(ctx); err != nil {
			return nil, err
		}
		r.mu.Lock()
		names = r.names
		r.mu.Unlock()
	}
	ref, ok := names.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownTool, name)
	}
	r.mu.Lock()
	srv := r.servers[ref.Server]
	r.mu.Unlock()
	if srv == nil {
		return nil, fmt.Errorf("%w: %q: server %q was removed", ErrUnknownTool, name, ref.Server)
	}
	call := Call{Name: name, Server: ref.Server, Tool: ref.Tool, Args: args}
	if r.opts.Approve != nil {
		err := errors.New("the approver failed") // a panicking approver refuses
		r.hook("Approve", func() { err = r.opts.Approve(ctx, call) })
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrRefused, name, err)
		}
	}
	start := time.Now()
	res, err := r.callServer(ctx, srv, ref.Tool, args)
	d := time.Since(start)
	hookErr := err
	if err == nil && res.Err != nil {
		hookErr = res.Err
	}
	r.hook("OnToolCall", func() {
		if r.opts.OnToolCall != nil {
			r.opts.OnToolCall(call, d, hookErr)
		}
	})
	if err != nil {
		return nil, err
	}
	res.Duration = d
	return res, nil
}

func (r *Registry) callServer(ctx context.Context, srv *server, tool string, args any) (*Result, error) {
	session, err := srv.live(ctx)
	if err != nil {
		return nil, err
	}
	if t := srv.cfg.ToolTimeout; t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	res, err := session.CallTool(ctx, tool, args)
	if err != nil {
		return nil, fmt.Errorf("server %q: tool %q: %w", srv.cfg.Name, tool, err)
	}
	out := &Result{Server: srv.cfg.Name, Tool: tool, Content: res.Content, Structured: res.StructuredContent, IsError: res.IsError}
	if res.IsError {
		msg := res.Text()
		if msg == "" {
			msg = "the tool reported an error without a message"
		}
		out.Err = &ToolError{Server: srv.cfg.Name, Tool: tool, Message: msg}
	}
	return out, nil
}
