// Package mcpclient is an MCP client session: one connection to one Model
// Context Protocol server (https://modelcontextprotocol.io/specification).
// It runs the lifecycle, lists what the server offers, calls tools, reads
// resources and prompts, and answers the server's own requests with
// handlers the host provides.
//
// The happy path, over a stdio server:
//
//	stream, err := transport.StartStdio(transport.StdioConfig{Command: "mcp-demo-server"})
//	if err != nil { … }
//	s, err := mcpclient.Connect(ctx, stream, nil)
//	if err != nil { … }
//	defer s.Close()
//	tools, err := mcpclient.Collect(s.Tools(ctx))
//	res, err := s.CallTool(ctx, "echo", map[string]any{"text": "hi"})
//	fmt.Println(res.Text(), res.IsError)
//
// Over HTTP the stream comes from package transport/streamhttp instead
// (streamhttp.Dial); Connect is the same. This package imports no network
// code: a program that only spawns stdio servers links none.
//
// # Two eras, one API
//
// MCP has two generations. In the handshake era (2024-11-05, 2025-03-26,
// 2025-06-18, 2025-11-25) a session starts with initialize; in the
// stateless era (2026-07-28) there is no handshake and every request
// carries its own metadata. [Connect] finds out which one a server speaks,
// as the specification's versioning page says: it asks server/discover
// and, unless the answer is a modern one, falls back to initialize
// ([Options].Era or ProtocolVersion skip the probe). [Session.Era] says
// what it found; every method below works the same in both.
//
// # Lifecycle
//
// In the handshake era [Connect] sends initialize with the newest
// handshake version, the client's capabilities and clientInfo. The server
// answers with the version it will speak — any of the four is accepted,
// anything else fails Connect with [ErrUnsupportedVersion] naming both —
// its capabilities, serverInfo and optional instructions. The client then
// sends notifications/initialized and the session is open until
// [Session.Close] or until the server goes away ([Session.Done],
// [Session.Err]). Over HTTP, a session the server ends is started again
// transparently and the call that noticed is replayed.
//
// In the stateless era the server/discover answer gives the same
// information, and every request carries _meta with the protocol
// version, the client's capabilities and clientInfo (encoded once per
// session, spliced into each request's params as they are written). A
// server that rejects the version (-32022) is asked again with one it
// offers. When the transport reports a response lost (its HTTP stream
// broke, which the server takes for a cancellation), a request that is
// safe to run twice — a list, a read, and with [Options].RepeatSafeTools a
// tool annotated read-only or idempotent — is sent again under a new id,
// at most twice; anything else, and what is still lost after that, fails
// with an error matching jsonrpc.ErrResponseLost. A server's own error
// codes are answers, never a reason to resend.
//
// # One path for every request
//
// Each method encodes its params once into a request; [Session.Call] is
// the same path for methods without a wrapper. Connect picks a wire for
// the era: the handshake wire starts a new session when an HTTP server
// ended the old one and sends the request again, once; the stateless
// wire adds the metadata and runs the input rounds. Below both, one
// exchange applies the timeout and decodes the result; a result that is
// null is an error ([ErrMalformedResult]), never an empty value.
//
// # Lists and pagination
//
// Tools, prompts, resources and resource templates come in pages. Each kind
// has an iterator over all pages ([Session.Tools]) that fetches the next
// page, with the cursor the last one gave, only when the loop reaches it;
// [Collect] gathers an iterator into a slice. A host that pages by hand
// (keeping a cursor between a user's clicks) sends the list method with
// its cursor through [Session.Call]. A server that repeats a cursor or never stops paginating ends the
// iteration with [ErrPagination] ([Options].MaxPages).
//
// # Tool results
//
// [Session.CallTool] returns a [CallToolResult]: a list of [Content] items
// decoded by their type (text, image, audio, resource_link, embedded
// resource; unknown types are kept raw), optional structured content, and
// IsError. A tool that ran and failed is a result with IsError set, not a
// Go error: the model should see the failure. JSON Schemas (a tool's input
// and output schema, an elicitation's requested schema) are kept
// byte-for-byte as the server sent them.
//
// # Tasks
//
// A server may run a tool call as a task: it answers with a handle at
// once and the client polls for the outcome. Package mcpclient/task
// follows tasks in both generations (2025-11-25's experimental tasks and
// the stateless era's extension, io.modelcontextprotocol/tasks); set [Options].Tasks to
// its runner and [Session.CallTool] drives a task to its final result as
// if it were one call. The session itself only declares tasks, asks for
// one where the runner says ([TaskRunner]) and hands over the task a
// server answered with — [Session.StartTool] returns it undriven — so a
// program that never sets Options.Tasks links none of the driving.
//
// Without Options.Tasks nothing of tasks is declared: a tool whose
// taskSupport is "required" is called plainly (the server refuses it), and
// a task answer is a protocol error ([ErrMalformedResult]) — as is any
// tools/call result without content, so that a task the client did not
// ask for never reaches a model as an empty success.
//
// # Skills
//
// A server that declares the skills extension (SEP-2640,
// io.modelcontextprotocol/skills in [ServerCapabilities].Extensions) serves Agent
// Skills: a SKILL.md whose YAML frontmatter names and describes the skill,
// and supporting files, each a resource. [Options].Skills declares the
// extension on the client's side; package mcpclient/skill lists the
// skills (skills/list, paged and bounded as the session's own lists are,
// through a package internal to mcpclient), checks each entry and loads a skill only when it is
// used, every byte verified against its entry. It is a package of its own:
// a learner reading one call need not read it, and a program that never
// loads a skill does not carry it.
//
// # MCP Apps
//
// A tool may come with an interactive interface (SEP-1865, the
// io.modelcontextprotocol/ui). [Options].UI declares the extension; package
// mcpclient/apps decodes a tool's _meta.ui (its ui:// interface and whom
// the tool is visible to), reads the interface and builds the
// Content-Security-Policy to run it under.
//
// # The server's requests
//
// A server may ask the host for a model completion (sampling), for user
// input (elicitation) or for the roots it may work in. Set
// [Options].Sampling, Elicitation or Roots and the matching capability is
// declared; leave one nil and the server is told the method does not exist.
// Each request runs on its own goroutine with a context that ends if the
// server cancels it. In the stateless era the server asks inside a result
// instead (input_required); the session runs the same handlers, then sends
// the request again with their answers and the server's requestState,
// untouched ([Options].ManualInput hands such results to the caller
// instead, as an [InputRequiredError]). An accepted form is completed with
// the defaults of the fields the user left out. A handler error goes back to the server as a JSON-RPC
// error (return a *jsonrpc.Error to pick the code); the session lives on.
//
// Notifications — log messages, list changes, resource updates — go to the
// callbacks in [Options], one at a time, in order, on a goroutine of their
// own: a slow callback never holds up an answer. What the session itself
// keeps is updated as each is read, ahead of any answer that follows: a
// list_changed empties that list's cache, a task's status reaches the
// call that runs it, an acknowledgement the Subscribe waiting for it.
// [Session.Close] hands the callbacks what came before it.
//
// # Cancellation, timeouts and progress
//
// Every call takes a context. When it ends before the answer, the call
// returns at once with the context's error and the server is sent
// notifications/cancelled for that request in the background (never for
// initialize, as the spec requires).
//
// One rule bounds the wait: a deadline of the caller's wins, shorter or
// longer; a request whose context has none gets [Options].RequestTimeout,
// the longest it may go without its answer or progress: 60s by default,
// and 10 minutes for tools/call, where long jobs run. Each progress update
// restarts it, up to [Options].MaxRequestTimeout from the request's start
// (30 minutes by default): a call that keeps proving it is alive is not
// lost, and one that never ends is. Either bound is reported as a
// [TimeoutError] that matches context.DeadlineExceeded and says which
// fired. A negative MaxRequestTimeout makes progress restart nothing.
//
// [WithProgress] makes a context's requests carry a progress token; the
// server's notifications/progress for it reach the callback on the calling
// goroutine, all of them before the call returns; any that come later go
// to [Options].OnProgress. A tools/call under the default timeout carries
// a token even without WithProgress, so that a server can report the
// progress that keeps it alive; those updates go to no callback.
package mcpclient
