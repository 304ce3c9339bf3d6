package mcpclient

import (
	"context"
	"encoding/json"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// Tasks let a server answer a long tool call with a handle that the client
// polls instead of one response that must arrive before a timeout. Package
// mcpclient/task follows them, in both of MCP's generations; the session
// itself only declares tasks (Options.Tasks), asks for one where the
// runner says, and hands over the task a server answered a call with. A
// program that never sets Options.Tasks neither reads nor links any of
// the driving.

// TasksExtension is the identifier of the stateless era's tasks extension
// (SEP-2663), declared in capabilities.extensions when Options.Tasks is
// set.
const TasksExtension = "io.modelcontextprotocol/tasks"

// TaskRunner runs tool calls as tasks: see Options.Tasks. Package
// mcpclient/task provides one (*task.Options).
type TaskRunner interface {
	// Attach is called once for each session, as Connect creates it and
	// before it sends anything (Attach must not send either), and returns
	// what follows that session's tasks.
	Attach(s *Session) SessionTasks
}

// SessionTasks follows the tasks of one session; the session calls it
// from many goroutines at once.
type SessionTasks interface {
	// TaskParams returns params.task for a handshake-era tools/call of
	// tool, or nil to call it plainly.
	TaskParams(ctx context.Context, tool string) (any, error)
	// Drive follows a task a tools/call was answered with — the task
	// object as the server sent it — to the call's final result.
	Drive(ctx context.Context, task json.RawMessage) (*CallToolResult, error)
	// ToolsListed sees each handshake-era page of tools/list (cursor ""
	// for the first): whether each tool may or must run as a task.
	ToolsListed(cursor string, tools []*Tool)
	// StatusNotice sees the params of each notifications/tasks/status,
	// on the session's read loop (so it must not block), before
	// Options.OnNotification does.
	StatusNotice(params json.RawMessage)
	// Answered returns the answer res to the server's request req with
	// what a request that belongs to a task requires added (2025-11-25's
	// related-task metadata), or res as it is.
	Answered(req *jsonrpc.Request, res any) any
}

// Tasks returns what Options.Tasks attached to the session (package
// mcpclient/task finds its state there), nil without Options.Tasks.
func (s *Session) Tasks() SessionTasks { return s.tasks }
