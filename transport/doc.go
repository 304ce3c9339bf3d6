// Package transport moves whole JSON-RPC frames between an MCP client and a
// server, as the transports section of the MCP specification describes
// (https://modelcontextprotocol.io/specification/latest/basic/transports).
//
// A transport knows nothing of requests and responses: it reads a frame,
// writes a frame, and closes. Each one here implements [jsonrpc.Stream],
// and a jsonrpc.Conn on top of it matches responses to requests. So a new
// transport is small, and none of them can get correlation wrong.
//
// The happy path starts a server as a child process and hands the stream
// to a connection:
//
//	s, err := transport.StartStdio(transport.StdioConfig{
//		Command: "npx",
//		Args:    []string{"-y", "@modelcontextprotocol/server-everything"},
//		Logger:  logger, // optional; nil means silent
//	})
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	conn := jsonrpc.NewConn(s, nil) // see package jsonrpc
//
// # Stdio
//
// In the stdio transport the client runs the server as a subprocess. Frames
// travel as newline-delimited JSON: one message per line on the server's
// stdin and stdout, no embedded newlines. Stdout carries nothing else by
// the specification, but in practice servers print banners and log lines
// there, so [Stdio] reads it through a line reader that skips any line
// that is not a JSON object or array, counts it, and reports it to the
// logger if one was given. Stderr is the server's log: it is drained as it
// comes (a server blocked on a full stderr pipe would stall), its tail is
// kept, and when the server exits, Read returns an [*ExitError] with the
// exit status and the last lines of stderr, which usually say what went
// wrong.
//
// The server runs with a small, safe environment unless
// StdioConfig.InheritEnv says otherwise, and it is never started through a
// shell: Command and Args reach the operating system as they are.
//
// # Shutdown
//
// [Stdio.Close] follows the specification: close the server's stdin, wait,
// send SIGTERM, wait, kill. The signals go to the server's process group,
// so that the real server behind a wrapper such as npx or uvx stops too.
// One delay, StdioConfig.CloseDelay, is used at each step, and Close never
// takes much longer than twice that. A Read that ends because of Close
// returns an error wrapping [jsonrpc.ErrClosed]: a clean end, not a failure
// to report.
//
// [Stdio.Shutdown] is the same shutdown for a host that cannot wait as
// long, as http.Server pairs Close with Shutdown(ctx): the wait for the
// server to exit by itself ends when ctx is done, and then SIGTERM comes at
// once and the kill a moment later. Given a context that is already done
// (the user pressed Ctrl-C), it waits for nothing. There is one shutdown
// per Stdio: a Close or Shutdown already waiting when a Shutdown's context
// ends stops waiting too, and every call returns the first one's result.
// That lets a host hurry a Close it does not make itself — the one a
// session makes, after the notifications/cancelled of the calls it gave up
// on went out — by wrapping the stream (mcpclient.Options.WrapStream) in
// one whose Close is Shutdown(ctx), ctx ending with the host's patience;
// this is what mcpc does on Ctrl-C.
//
// A host that dies without Close (killed, crashed, exited) takes its
// servers with it where the system allows: on Linux each is started with
// a parent-death signal (SIGKILL), from one goroutine locked to its OS
// thread while any server it started runs, since the kernel sends that
// signal when the starting thread ends; on Windows each joins a job
// object that kills its processes when the host's handle to it closes.
// macOS has neither: there a server sees its stdin end, and one that
// ignores that outlives its host. On Linux the signal reaches the server,
// not the processes it started, which see their stdin end.
//
// # Limits
//
// Lines are limited to [DefaultMaxLine] bytes unless configured otherwise; a
// longer line is read past without being kept, reported, and reading goes
// on. The stderr tail is bounded too. Nothing here logs unless it is given
// a logger (a *slog.Logger, say).
//
// # What a session learns from a stream, and tells it
//
// A session needs a few things from its transport beyond frames: that the
// server ended the session ([ErrSessionExpired]), that it refused a
// message without a JSON-RPC answer ([ErrRefused]), that one response
// will never come (rpcwire.ResponseLostError, returned by Read beside the
// frames, so no server frame can forge it); and it tells the transport
// the protocol it agreed ([Protocol], through [ProtocolSetter]) and what
// each request names (through a Write's context, by a package internal to
// the module). They are plain values in the net-free core, so the session
// never depends on a network transport.
//
// # No network here
//
// This package and package jsonrpc import neither net, net/http nor
// crypto/tls: a program that only spawns stdio servers links none of
// them. The HTTP transports (Streamable HTTP, and HTTP+SSE for servers
// that predate it) live in the subpackage streamhttp, whose Dial returns
// an ordinary stream.
//
// # Other streams
//
// [LineStream] is the newline-delimited framing of stdio over any reader
// and writer; a server speaking stdio uses it on os.Stdin and os.Stdout. [Pipe]
// connects two streams in memory, for tests and for servers that run in the
// client's process. [Trace] wraps any stream and prints every frame that
// passes, as a CLI's --trace flag does.
package transport
