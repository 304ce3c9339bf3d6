// Package safe holds plainmcp's checks on what a server or a provider
// sends, each written once and named after what it guarantees:
//
//   - [CheckURL]: a URL that may be handed to a browser or the system's URL
//     opener, or used as an OAuth endpoint, is https, or http on a loopback
//     host. A hostile MCP server chooses its authorization server, and with
//     it every endpoint in that server's metadata; javascript:, file:,
//     data: or a custom scheme (vscode:, …) handed to an opener runs
//     something on the user's machine.
//   - [Printable] and [Line]: text bound for a terminal carries no control
//     character (C0, C1, ESC sequences, bidirectional overrides) that the
//     terminal would act on; [Line] also keeps a quote to one bounded line.
//
// The library applies them where untrusted values enter (the oauth
// package's metadata and redirect URL); the mcpc command applies them
// again where values leave (its URL opener, everything it prints).
package safe
