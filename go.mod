module github.com/plainmcp/plainmcp

go 1.23
