// Package integration holds tests that run plainmcp against real MCP
// servers from npm. They skip unless the environment names the servers, so
// `go test ./...` stays fast and offline; `make integration` installs the
// servers pinned in npm/package.json into a local folder and runs them.
//
//	PLAINMCP_EVERYTHING         dist/index.js of @modelcontextprotocol/server-everything (current)
//	PLAINMCP_EVERYTHING_LEGACY  dist/index.js of server-everything 2025.9.25, whose
//	                            resources/list is paginated (10 pages of 10)
//	PLAINMCP_FILESYSTEM         dist/index.js of @modelcontextprotocol/server-filesystem
//	PLAINMCP_MEMORY             dist/index.js of @modelcontextprotocol/server-memory
//
// # Sessions
//
// everything_test.go and http_test.go drive one mcpclient session against
// server-everything over stdio, Streamable HTTP and the legacy HTTP+SSE
// transport: tools, content kinds, progress, sampling, elicitation, roots,
// resources, prompts, completion and logging.
//
// # The registry
//
// workspace_test.go writes a .mcp.json into a temporary directory naming
// three stdio servers — server-everything, server-filesystem confined to a
// seeded directory, and server-memory with its graph file beside it — with
// every path given as a ${VAR} reference. registry_test.go runs package
// toolreg over it: parallel startup, status, qualified tool names, calls
// routed to each server, a tool error, per-server allow and deny patterns,
// prompts and resources across servers. registry_faults_test.go starts a
// server that fails, with and without Strict, and kills one under the
// registry to see it restarted.
//
// mcpc_test.go builds cmd/mcpc and runs it against the same config file,
// checking its --json output and its exit codes (0 done, 1 failed, 2 usage,
// 4 a server unavailable or needing a login, 5 a tool error).
// watch_test.go runs mcpc watch over server-everything 2025.9.25, whose
// subscribed resources are updated every ten seconds, and mcpc's URL-mode
// elicitation over the current server-everything's trigger-url-elicitation
// (the request path and the -32042 error path), with a stand-in xdg-open
// that writes down the pages it is given.
//
// claudecode_test.go lays out a Claude Code user's files in a home of its
// own: ~/.claude.json with app state, a user-scope stdio server and, under
// the project's directory, a local-scope server given by a url and no type
// (server-everything over Streamable HTTP), and the project's .mcp.json.
// Every path is a ${VAR} taken from the environment, and server-memory
// finds its file through a variable it inherits, not one in its env. The
// files are found by mcpjson.ClaudeCodeFiles, and by mcpc run in the
// project with no --config.
//
// # Authorization
//
// auth_tssdk_test.go and auth_oidc_test.go run mcpc login, tools and call
// (each its own process, in a home of its own) against authorization
// servers nobody on this project wrote: the official TypeScript SDK's
// mcpAuthRouter over its demo provider with requireBearerAuth, and
// oidc-provider in front of a resource server that validates its JWTs,
// Bearer or DPoP (authnpm/*.mjs, pinned in authnpm/package.json with the
// Node 22 oidc-provider supports). The user is internal/integration/browser,
// a scripted browser on PATH as xdg-open that fills in the provider's
// login and consent forms, slowly when asked. Each scenario counts the
// browser flows and the client registrations the provider saw. They skip
// unless PLAINMCP_AUTH_NODE and PLAINMCP_AUTH_DIR are set, as make
// integration-auth does (authkit_test.go).
package integration
