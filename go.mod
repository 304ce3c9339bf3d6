module github.com/plainmcp/plainmcp

go 1.23

require github.com/google/go-cmp v0.7.0
