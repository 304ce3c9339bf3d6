package toolreg

import (
	"context"
	"fmt"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// Resource is one resource and the server that offers it. Resources keep
// their URIs: two servers may well offer the same URI (file:///…), so a
// resource is read by server and URI together, as Claude Code's
// @server:uri references do.
type Resource struct {
	Server   string
	Resource *mcpclient.Resource
}

// ResourceTemplate is one resource template and the server that offers it.
type ResourceTemplate struct {
	Server   string
	Template *mcpclient.ResourceTemplate
}

// Resources lists the resources of every connected server, cached and
// refreshed as tools are. A server that offers no resources contributes
// none; one that cannot list is logged and contributes what it listed
// last. The error is non-nil
// only when ctx ends.
func (r *Registry) Resources(ctx context.Context) ([]Resource, error) {
	servers := r.snapshot()
	lists, err := listAll(ctx, r, servers, (*server).listResources)
	if err != nil {
		return nil, err
	}
	var out []Resource
	for i, s := range servers {
		for _, res := range lists[i] {
			out = append(out, Resource{Server: s.cfg.Name, Resource: res})
		}
	}
	return out, nil
}

// ResourceTemplates lists the resource templates of every connected
// server, as Resources lists resources.
func (r *Registry) ResourceTemplates(ctx context.Context) ([]ResourceTemplate, error) {
	servers := r.snapshot()
	lists, err := listAll(ctx, r, servers, (*server).listTemplates)
	if err != nil {
		return nil, err
	}
	var out []ResourceTemplate
	for i, s := range servers {
		for _, t := range lists[i] {
			out = append(out, ResourceTemplate{Server: s.cfg.Name, Template: t})
		}
	}
	return out, nil
}

// ReadResource reads uri from the named server. The URI need not have been
// listed: templates and links in tool results name resources too.
func (r *Registry) ReadResource(ctx context.Context, server, uri string) (*mcpclient.ReadResourceResult, error) {
	session, err := r.Session(ctx, server)
	if err != nil {
		return nil, err
	}
	res, err := session.ReadResource(ctx, uri)
	if err != nil {
		return nil, fmt.Errorf("server %q: reading %s: %w", server, uri, err)
	}
	return res, nil
}
