// Package ext is how the extension packages under mcpclient (task today)
// reach a session beyond its public API. Nothing here is a promise to
// hosts: a host opts in to an extension through that package's own API
// (Options.Tasks: &task.Options{}), and a program that does not links none
// of it.
package ext

import (
	"context"
	"encoding/json"

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
	// Tasks returns what the runner attached to the session, nil if none.
	Tasks() any
}

// SessionOf returns the Session of session, a *mcpclient.Session (this
// package cannot name the type). mcpclient sets it as the package
// initializes, before any package that imports mcpclient runs, and
// nothing changes it after: it is a seam, not state.
var SessionOf func(session any) Session
