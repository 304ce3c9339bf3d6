// Package task lets a session's tool calls run as MCP tasks: a server
// answers a long call with a handle that the client polls, instead of one
// response that must arrive before a timeout. It is apart from package
// mcpclient so that a program that never uses tasks neither reads nor
// links it; a host opts in with one line,
//
//	opts := &mcpclient.Options{Tasks: &task.Options{}}
//
// and CallTool then drives a task to its final result on the caller's
// goroutine. Start, Get, Await, Cancel and All are the handle API for
// hosts that return to the user meanwhile; WithStatus reports each state a
// call's task passes through.
//
// MCP has two generations of tasks, and Options serves both:
//
//   - 2025-11-25 (handshake era, experimental in the core specification):
//     the client asks for a task (tools/call with params.task) when the
//     server declares tasks.requests.tools.call and the tool's
//     execution.taskSupport allows it ([Support]); it polls tasks/get and
//     fetches the outcome with tasks/result, which the server holds open
//     while it sends its own requests (elicitation, sampling) for the
//     task, answered by the session's handlers and tagged with the related
//     task. A notifications/tasks/status the server may send stands in for
//     the next poll.
//   - 2026-07-28 (stateless era, the extension io.modelcontextprotocol/tasks,
//     SEP-2663): the client declares the extension on every request and the
//     server decides, call by call, to answer with resultType "task"; the
//     client polls tasks/get, whose answer carries the outcome (result or
//     error) and the task's inputRequests, which the client answers once
//     each with tasks/update.
//
// Either way polling follows the server's interval, bounded both ways by
// Options; a task ends in its result or an [*Error] whose cause is the
// server's JSON-RPC error, [ErrCancelled] or [ErrExpired] (the task's TTL,
// or Options.MaxWait, passed). A caller whose context ends cancels the
// task at the server (tasks/cancel). Everything a server sends about a
// task — its id, status, message, intervals, input requests — is checked
// and bounded before it is used.
package task
