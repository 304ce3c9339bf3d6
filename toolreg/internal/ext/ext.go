// Package ext is how toolreg's extension packages (toolreg/skills,
// toolreg/ui) reach a registry beyond its public API: the per-server
// caches the registry keeps fresh. Nothing here is a promise to hosts: a
// host opts in to an extension by calling that package, and a program
// that does not links none of it, nor the mcpclient package it wraps.
package ext

import (
	"context"
	"iter"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// Registry is a registry's machinery that an extension package uses.
type Registry interface {
	// List returns, for each started server in the registry's order, its
	// name and the items all yields on its session; none from a server
	// whose capabilities fail offers. Each server's listing is cached
	// under kind as the registry caches its own lists, and asked for
	// again after the server's resources change or it reconnects. A
	// server that cannot list is logged and contributes what it listed
	// last; the error is non-nil only when ctx ends.
	List(ctx context.Context, kind string, offers func(mcpclient.ServerCapabilities) bool,
		all func(context.Context, *mcpclient.Session) iter.Seq2[any, error]) (servers []string, lists [][]any, err error)
	// Names names each (server, name) pair as the registry names prompts:
	// mcp__<server>__<name>, hashed where needed to stay unique.
	Names(refs [][2]string) []string
	// Keep holds v under key until the registry's servers change (Add,
	// Remove); Kept returns it, nil if nothing is held.
	Keep(key string, v any)
	Kept(key string) any
	// Cached returns what read gave for key on server: read once per
	// session (concurrent callers share one read, a failed read is not
	// kept), and forgotten when the server's resources change.
	Cached(ctx context.Context, server, key string, read func(context.Context, *mcpclient.Session) (any, error)) (any, error)
	// Resources returns server's resources as its last listing holds
	// them (listed now if need be); nil if it has none or cannot list.
	Resources(ctx context.Context, server string) []*mcpclient.Resource
}

// RegistryOf returns the Registry of r, a *toolreg.Registry (this package
// cannot name the type). toolreg sets it as the package initializes,
// before any package that imports toolreg runs, and nothing changes it
// after: it is a seam, not state.
var RegistryOf func(r any) Registry
