// Package safeurl checks the URLs a server, an authorization server or a
// provider names before anything uses one:
//
//   - [Check]: a URL that may be handed to a browser or the system's URL
//     opener, or used as an OAuth endpoint, is https, or http on a loopback
//     host. A hostile MCP server chooses its authorization server, and with
//     it every endpoint in that server's metadata; javascript:, file:,
//     data: or a custom scheme (vscode:, …) handed to an opener runs
//     something on the user's machine.
//   - [CheckNamed]: a peer that is not on this machine names no URL that
//     is, so that it cannot have the client or the user's browser reach
//     the services listening here.
//
// It is apart from package safe (text), so that a program that checks
// only text, as a stdio client does, links no URL parser.
package safeurl
