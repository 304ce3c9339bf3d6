// Package ext is how the extension packages under mcpclient (task, skill)
// reach a session beyond its public API. Nothing here is a promise to
// hosts: a host opts in to an extension through that package's own API
// (Options.Tasks: &task.Options{}), and a program that does not links none
// of it.
package ext

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// Tasks follows the tasks of one session: what a task runner attaches to
// it. The session calls it from many goroutines at once. Result and Tool
// are mcpclient's *CallToolResult and *Tool (this package sits below
// mcpclient, so it cannot name them).
type Tasks[Result, Tool any] interface {
	// TaskParams returns params.task for a handshake-era tools/call of
	// tool, or nil to call it plainly.
	TaskParams(ctx context.Context, tool string) (any, error)
	// Drive follows a task a tools/call was answered with — the task
	// object as the server sent it — to the call's final result.
	Drive(ctx context.Context, task json.RawMessage) (Result, error)
	// ToolsListed sees each handshake-era page of tools/list (cursor ""
	// for the first): whether each tool may or must run as a task.
	ToolsListed(cursor string, tools []Tool)
	// StatusNotice sees the params of each notifications/tasks/status,
	// on the session's read loop (so it must not block), before
	// Options.OnNotification does.
	StatusNotice(params json.RawMessage)
	// Answered returns the answer res to the server's request req with
	// what a request that belongs to a task requires added (2025-11-25's
	// related-task metadata), or res as it is.
	Answered(req *jsonrpc.Request, res any) any
}

// Session is a session's own machinery that an extension uses and the
// session's public API does not offer.
type Session interface {
	// CallDetached sends a request whose answer nobody waits for (an
	// extension's tasks/cancel), detached from any caller's context and
	// bounded on its own, as the session's cancellation notices are;
	// Close gives it the same moment to go out. name is mirrored as
	// CallNamed mirrors it; a failure is only logged.
	CallDetached(method, name string, params any)
	// CallNamed is Session.Call for a request that names its target
	// (tasks/get's task id), which the stateless HTTP wire mirrors into
	// the Mcp-Name header so that intermediaries can route it.
	CallNamed(ctx context.Context, method, name string, params, result any) error
	// ListPage fetches the page of an extension's list method that cursor
	// names ("" for the first) into page, a pointer to the struct its
	// result decodes into, the way the session fetches its own lists (in
	// the stateless era a fresh page the server marked cacheable comes
	// from the session's cache).
	ListPage(ctx context.Context, method, cursor string, page any) error
	// Paginate iterates over every item of a paginated list as the
	// session's own iterators do: it stops at a cursor returned twice and
	// after Options.MaxPages pages, with an error wrapping
	// mcpclient.ErrPagination. Use the typed Paginate below.
	Paginate(method string, page func(cursor string) ([]any, string, error)) iter.Seq2[any, error]
	// Tasks returns what the runner attached to the session, nil if none.
	Tasks() any
}

// Paginate is Session.Paginate for items of type T: page(cursor) returns
// a page's items and the next cursor ("" after the last); any error ends
// the iteration as its last pair.
func Paginate[T any](s Session, method string, page func(cursor string) ([]T, string, error)) iter.Seq2[T, error] {
	untyped := func(cursor string) ([]any, string, error) {
		items, next, err := page(cursor)
		out := make([]any, len(items))
		for i, item := range items {
			out[i] = item
		}
		return out, next, err
	}
	return func(yield func(T, error) bool) {
		for item, err := range s.Paginate(method, untyped) {
			var t T
			if err == nil {
				t, _ = item.(T)
			}
			if !yield(t, err) {
				return
			}
		}
	}
}

// SessionOf returns the Session of session, a *mcpclient.Session (this
// package cannot name the type). mcpclient sets it as the package
// initializes, before any package that imports mcpclient runs, and
// nothing changes it after: it is a seam, not state.
var SessionOf func(session any) Session
