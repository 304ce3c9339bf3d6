package mcpclient

import (
	"context"

	"github.com/plainmcp/plainmcp/mcpclient/internal/ext"
)

// Tasks let a server answer a long tool call with a handle that the client
// polls instead of one response that must arrive before a timeout. Package
// mcpclient/task follows them, in both of MCP's generations; the session
// itself only declares tasks (Options.Tasks), asks for one where the
// runner says, and hands over the task a server answered a call with. A
// program that never sets Options.Tasks neither reads nor links any of
// the driving.

// TaskRunner runs tool calls as tasks: see Options.Tasks. Package
// mcpclient/task provides the one there is (*task.Options); its method
// names a type of the internal package through which task reaches the
// session, so nothing else implements it.
type TaskRunner interface {
	// Attach is called once for each session, as Connect creates it and
	// before it sends anything (Attach must not send either), and returns
	// what follows that session's tasks.
	Attach(s *Session) sessionTasks
}

// sessionTasks follows the tasks of one session (see ext.Tasks).
type sessionTasks = ext.Tasks[*CallToolResult, *Tool]

// extSession is the session as its extensions see it (ext.Session).
type extSession struct{ s *Session }

func init() {
	ext.SessionOf = func(session any) ext.Session {
		s, _ := session.(*Session)
		return extSession{s}
	}
}

func (e extSession) CallDetached(method, name string, params any) {
	e.s.callDetached(method, name, params)
}

func (e extSession) CallNamed(ctx context.Context, method, name string, params, result any) error {
	return e.s.callNamed(ctx, method, name, params, result, false)
}

// Tasks returns what Options.Tasks attached to the session, nil without
// Options.Tasks (or without a session).
func (e extSession) Tasks() any {
	if e.s == nil || e.s.tasks == nil {
		return nil
	}
	return e.s.tasks
}
