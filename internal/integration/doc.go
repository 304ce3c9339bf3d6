// Package integration holds tests that run plainmcp against real MCP
// servers from npm. They skip unless the environment names the servers, so
// `go test ./...` stays fast and offline; `make integration` installs the
// servers into a local folder and runs them.
//
//	PLAINMCP_EVERYTHING         dist/index.js of @modelcontextprotocol/server-everything (current)
//	PLAINMCP_EVERYTHING_LEGACY  dist/index.js of server-everything 2025.9.25, whose
//	                            resources/list is paginated (10 pages of 10)
package integration
