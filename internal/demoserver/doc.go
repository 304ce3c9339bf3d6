// Package demoserver is a small Model Context Protocol server of the
// handshake era (https://modelcontextprotocol.io/specification/2025-11-25),
// built on package jsonrpc. It exists to demonstrate and test the client:
// the demo, the runnable examples, the client's tests and its benchmarks
// all talk to it. It is deterministic (no clocks or randomness in its
// answers) and keeps everything in memory.
//
// Serve it over any jsonrpc.Stream, such as one end of an in-memory pipe:
//
//	clientEnd, serverEnd := transport.Pipe()
//	srv := demoserver.New(&demoserver.Options{PageSize: 10})
//	go srv.Serve(ctx, serverEnd)
//	// …a client connects over clientEnd and sends initialize.
//
// The command mcp-demo-server serves it over stdio.
//
// # Sessions and versions
//
// Each call to [Server.Serve] is one session. initialize answers with the
// client's protocolVersion if it is one of 2024-11-05, 2025-03-26,
// 2025-06-18 or 2025-11-25, and with [LatestVersion] otherwise. The server
// declares tools, prompts and resources (with listChanged and subscribe),
// logging and completions. It remembers whether the client declared
// sampling, elicitation and roots, which the tools of the same names need.
// It declares the skills extension too (capabilities.extensions
// "io.modelcontextprotocol/skills"; see Skills below).
// Requests other than initialize and ping before initialize has been
// answered get -32600 "not initialized"; requests read right behind an
// initialize request wait for it rather than race it. notifications/cancelled
// ends the named request, which is then not answered; if that request was
// waiting on one the server sent the client (sampling, elicitation, roots),
// the server cancels that one in turn. When the client ends
// its side of the stream, the requests already read are still answered,
// for at most Options.Linger, before Serve returns. The server sends the newest
// shapes of results whatever the version, except that elicitation/create
// carries mode "form" only from 2025-11-25 on.
//
// # Tools
//
// In tools/list order:
//
//   - echo {text: string}: one text block, the text.
//   - add {a: number, b: number}: text "<sum>" and structuredContent
//     {"sum": <sum>}; has an outputSchema.
//   - slow {steps: integer = 5, delayMs: integer = 100}: waits delayMs,
//     steps times; with _meta.progressToken it sends notifications/progress
//     {progressToken, progress: i, total: steps, message: "step i of N"}
//     after each step. Text "done after N steps". Cancellable.
//   - sample {prompt: string}: sends sampling/createMessage (the prompt as
//     one user message, a systemPrompt, maxTokens 100); text
//     "model said: <text>" and structuredContent {"text", "model"}.
//   - elicit {message: string}: sends elicitation/create asking for
//     {name: string (default "Ada"), age: integer}, name required; text
//     "action: <action>" followed, when the client sent content, by
//     ", content: <JSON with sorted keys>"; structuredContent
//     {"action", "content"}.
//   - roots {}: sends roots/list; text: the URIs one per line, or "no roots".
//   - mixed {}: a text, an image (image/png), an audio (audio/wav), a
//     resource_link (demo://docs/readme) and an embedded text resource
//     (demo://data/numbers.json); structuredContent {"items": 5}.
//   - fail {}: a tool error: isError with a text block explaining it.
//   - big {bytes: integer}: one text block of exactly that many bytes, the
//     alphabet repeated; at most 64 MiB.
//   - log {level: string = "info", message: string}: sends
//     notifications/message {level, logger: "demo", data: message} unless
//     the level is below the session's (see logging/setLevel; "info" until
//     set). Text "sent", or "not sent: …".
//   - change {}: adds the tool "dynamic" (listed last) or removes it, then
//     sends notifications/tools/list_changed. Text `added tool "dynamic"`
//     or `removed tool "dynamic"`.
//   - touch {uri: string}: sends notifications/resources/updated {uri} if
//     the client subscribed to uri. Text "notified the subscriber of <uri>"
//     or "not subscribed to <uri>".
//   - research {topic: string, steps: integer = 3, delayMs: integer = 100,
//     ask: boolean, fail: boolean}: runs only as a task
//     (execution.taskSupport "required"; see Tasks below). It takes steps,
//     each delayMs, its status message "step i of N"; with ask, after the
//     first step it asks the user which reading of the topic they mean
//     (input_required, an elicitation for {reading: "broad" | "narrow"}).
//     Result text "report on <topic> (<reading> reading) after N steps";
//     with fail, the task fails with -32603 instead.
//
// With Options.VisitPage set (mcp-demo-server -pages), then:
//
//   - visit {message: string, required: boolean, waitMs: integer = 30000}:
//     asks the user to open a page (URL-mode elicitation; the client must
//     declare elicitation.url). Each page is a new elicitation id, visit-1,
//     visit-2, … within the session, with a page of its own from
//     VisitPage; loading it sends notifications/elicitation/complete
//     (handshake era). Handshake era: an elicitation/create of mode "url";
//     on accept the tool waits up to waitMs for the page, then answers
//     "the page of visit-N was visited" (or a tool error); on decline or
//     cancel, "action: <action>". With required, it answers the error
//     -32042 listing the page instead, until a later call finds that page
//     loaded. Stateless era: an input_required result whose input request
//     "visit" is the URL elicitation (no id; the request state names the
//     page), and the retry is answered as above.
//
// Then, with Options.ExtraTools = n, tools tool-0001 … tool-n that take an
// optional {value: string} and answer "<name>: <value>". The tools sample,
// elicit and roots answer a tool error when the client did not declare the
// capability they need, or when the client's answer is an error.
//
// # Tasks
//
// With 2025-11-25 the server declares tasks {list, cancel, requests.tools.call};
// research called with params.task answers {"task": …} at once and runs
// on; tasks/get shows it (pollInterval 100, ttl 10 minutes), tasks/result
// waits for its end and answers the result (with the related-task _meta)
// or the task's JSON-RPC error, tasks/list pages through the session's
// tasks, tasks/cancel cancels one that has not ended (-32602 otherwise).
// Its question to the user is an elicitation/create carrying the
// related-task _meta. Called without params.task it is -32601.
//
// In the stateless era (Options.Stateless) the server offers the tasks
// extension (io.modelcontextprotocol/tasks) instead: research answers a
// client that declares the extension with resultType "task", tasks/get
// carries the outcome (result or error) and, while the task waits, its
// inputRequests, which tasks/update answers; tasks/cancel acknowledges.
// A client that does not declare the extension gets -32021. Task ids
// count up within the session that made them (task-1, task-2, …); a
// session keeps at most 64, dropping the oldest finished one. Task
// timestamps are the one place the server reads the clock.
//
// # The stateless era
//
// Options.Stateless (mcp-demo-server -stateless) makes the server answer
// server/discover, offering 2026-07-28, and serve any request that
// carries that era's _meta without initialize. Tools that send the client
// requests (sample, elicit, roots) answer a tool error there: the era's
// way of asking is the research tool's.
//
// # Prompts
//
//   - greeting {name (required)}: one user message "Say hello to <name>".
//   - code-review {code (required), language}: a user message asking for a
//     review of the code in a fenced block, and an assistant message.
//
// completion/complete suggests, by case-insensitive prefix, names (Ada,
// Alan, Barbara, Grace, Linus) for greeting's name and for the template's
// {name}, and languages (go, python, rust, typescript) for code-review's
// language.
//
// # Resources
//
//   - demo://docs/readme (text/markdown, text)
//   - demo://data/numbers.json (application/json, text)
//   - demo://images/pixel.png (image/png, blob)
//   - the template demo://greetings/{name}: reading demo://greetings/Bob
//     gives text/plain "Hello, Bob!".
//
// resources/subscribe and resources/unsubscribe take a readable URI.
//
// # Watching
//
// With Options.Tick (mcp-demo-server -tick d) every session runs a clock:
// each tick the resource demo://data/counter (text/plain, the number of
// ticks so far; listed and readable only then) counts up and the tool
// "dynamic" comes or goes, as the change tool makes it. A handshake-era
// client is sent notifications/tools/list_changed, and
// notifications/resources/updated for the counter if it subscribed to
// it. In the stateless era, subscriptions/listen is held open until the
// client cancels it: it is acknowledged first
// (notifications/subscriptions/acknowledged with what the server agreed
// to: the lists it asked for but prompts, which never change, and the
// resources that exist), then each tick sends what it asked for, every
// notification carrying the request's id in
// _meta["io.modelcontextprotocol/subscriptionId"].
//
// # Skills
//
// The skills extension (SEP-2640): skills/list lists [DemoSkills], or
// Options.Skills, each entry with its URI, its frontmatter and every file
// with its SHA-256 digest and size; skills/get answers the entry of one
// skill by its SKILL.md's URI (-32602 for any other). Every file is a
// resource, read with resources/read (text/markdown for .md files) but not
// listed by resources/list. A [Skill] can serve other bytes than those its
// entry describes (Skill.Served), to test how a client verifies them.
//
// # Lists
//
// tools/list, prompts/list, resources/list, resources/templates/list and
// skills/list are paginated: Options.PageSize items per page and an opaque
// nextCursor until the last page. An unknown cursor is -32602.
//
// # Errors
//
// An unknown tool or prompt, a missing required argument or one of the
// wrong type is -32602 with a message naming it. Reading an unknown
// resource is -32002 with data {"uri": <uri>}. An unknown method is
// -32601. A tool that fails as a tool (fail, or sample without sampling)
// answers a result with isError, not a JSON-RPC error.
package demoserver
