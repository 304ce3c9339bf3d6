package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	"github.com/plainmcp/plainmcp/internal/reqinfo"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// Every list method (tools, prompts, resources, resource templates) is
// paginated the same way: the request carries an opaque cursor, the result
// an optional nextCursor. Each kind has an iterator over every page
// (Tools …), fetching pages as it goes, over a one-page call of its own
// (listTools …); Collect gathers an iterator into a slice. A host that
// keeps a cursor itself sends the list method through Session.Call.

type pageParams struct {
	Cursor string `json:"cursor,omitempty"`
}

// listToolsResult is one page of tools/list.
type listToolsResult struct {
	Tools      []*Tool         `json:"tools"`
	NextCursor string          `json:"nextCursor,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// listPromptsResult is one page of prompts/list.
type listPromptsResult struct {
	Prompts    []*Prompt       `json:"prompts"`
	NextCursor string          `json:"nextCursor,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// listResourcesResult is one page of resources/list.
type listResourcesResult struct {
	Resources  []*Resource     `json:"resources"`
	NextCursor string          `json:"nextCursor,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// listResourceTemplatesResult is one page of resources/templates/list.
type listResourceTemplatesResult struct {
	ResourceTemplates []*ResourceTemplate `json:"resourceTemplates"`
	NextCursor        string              `json:"nextCursor,omitempty"`
	Meta              json.RawMessage     `json:"_meta,omitempty"`
}

// listTools fetches one page of tools; cursor "" asks for the first.
//
// In the stateless era over Streamable HTTP, whose wire mirrors arguments
// into headers, a tool whose x-mcp-header annotations break the rules is
// left out (and reported to the logger): a client must not call it. For
// the others, CallTool sends the Mcp-Param headers they ask for. Over
// stdio the annotations mean nothing, and no tool is left out for them.
func (s *Session) listTools(ctx context.Context, cursor string) (*listToolsResult, error) {
	var page toolsPage
	if err := s.listPage(ctx, methodToolsList, cursor, &page); err != nil {
		return nil, err
	}
	res := listToolsResult{Tools: pointers(page.Tools), NextCursor: page.NextCursor, Meta: page.Meta}
	if err := checkItems(res.Tools, methodToolsList, func(t *Tool) string { return t.Name }); err != nil {
		return nil, err
	}
	if s.Era() == EraStateless {
		res.Tools = s.keepValidTools(res.Tools)
	} else if s.tasks != nil {
		s.tasks.ToolsListed(cursor, res.Tools)
	}
	return &res, nil
}

// toolsPage decodes a page into one array of tools rather than one
// allocation per tool; listTools hands out pointers into it.
type toolsPage struct {
	Tools      []Tool          `json:"tools"`
	NextCursor string          `json:"nextCursor,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
	resultEnvelope
}

// pointers returns a pointer to each item, or nil for nil. A null item
// becomes a zero value, which checkItems rejects as it would a nil.
func pointers[T any](items []T) []*T {
	if items == nil {
		return nil
	}
	ptrs := make([]*T, len(items))
	for i := range items {
		ptrs[i] = &items[i]
	}
	return ptrs
}

// keepValidTools remembers whether each tool is safe to repeat and, over
// a stream that mirrors arguments into headers (Streamable HTTP: see
// reqinfo.ParamHeaders), drops the tools with invalid x-mcp-header
// annotations and remembers the headers of the rest.
func (s *Session) keepValidTools(tools []*Tool) []*Tool {
	check := reqinfo.ParamHeaders.Of
	if !s.shapesRequests {
		check = nil
	}
	kept := tools[:0]
	for _, t := range tools {
		if check != nil {
			h, err := check(t.InputSchema)
			if err != nil {
				s.log.Warn("mcpclient: leaving out a tool with invalid x-mcp-header annotations", "tool", t.Name, "reason", err)
				continue
			}
			s.headers.set(t.Name, h)
		}
		a := t.Annotations
		s.headers.setRepeatable(t.Name, a != nil && (isTrue(a.ReadOnlyHint) || isTrue(a.IdempotentHint)))
		kept = append(kept, t)
	}
	return kept
}

// listPrompts fetches one page of prompts.
func (s *Session) listPrompts(ctx context.Context, cursor string) (*listPromptsResult, error) {
	var page struct {
		listPromptsResult
		resultEnvelope
	}
	if err := s.listPage(ctx, methodPromptsList, cursor, &page); err != nil {
		return nil, err
	}
	res := &page.listPromptsResult
	return res, checkItems(res.Prompts, methodPromptsList, func(p *Prompt) string { return p.Name })
}

// listResources fetches one page of resources.
func (s *Session) listResources(ctx context.Context, cursor string) (*listResourcesResult, error) {
	var page struct {
		listResourcesResult
		resultEnvelope
	}
	if err := s.listPage(ctx, methodResourcesList, cursor, &page); err != nil {
		return nil, err
	}
	res := &page.listResourcesResult
	return res, checkItems(res.Resources, methodResourcesList, func(r *Resource) string { return r.URI })
}

// listResourceTemplates fetches one page of resource templates. A server
// that answers method-not-found simply has none: the result is empty.
func (s *Session) listResourceTemplates(ctx context.Context, cursor string) (*listResourceTemplatesResult, error) {
	var page struct {
		listResourceTemplatesResult
		resultEnvelope
	}
	err := s.listPage(ctx, methodResourceTemplatesList, cursor, &page)
	if errors.Is(err, jsonrpc.ErrMethodNotFound) {
		return &listResourceTemplatesResult{}, nil
	}
	if err != nil {
		return nil, err
	}
	res := &page.listResourceTemplatesResult
	return res, checkItems(res.ResourceTemplates, methodResourceTemplatesList, func(t *ResourceTemplate) string { return t.URITemplate })
}

// checkItems rejects null entries and entries without their identifying
// field, which would otherwise surface later as a nil dereference or an
// unnamed tool.
func checkItems[T any](items []*T, method string, key func(*T) string) error {
	for i, it := range items {
		if it == nil || key(it) == "" {
			return fmt.Errorf("%w: %s item %d has no name", ErrMalformedResult, method, i)
		}
	}
	return nil
}

// Tools iterates over every tool, fetching pages as it goes. An error ends
// the iteration as its last pair.
func (s *Session) Tools(ctx context.Context) iter.Seq2[*Tool, error] {
	return paginate(s, methodToolsList, func(c string) ([]*Tool, string, error) {
		r, err := s.listTools(ctx, c)
		if err != nil {
			return nil, "", err
		}
		return r.Tools, r.NextCursor, nil
	})
}

// Prompts iterates over every prompt.
func (s *Session) Prompts(ctx context.Context) iter.Seq2[*Prompt, error] {
	return paginate(s, methodPromptsList, func(c string) ([]*Prompt, string, error) {
		r, err := s.listPrompts(ctx, c)
		if err != nil {
			return nil, "", err
		}
		return r.Prompts, r.NextCursor, nil
	})
}

// Resources iterates over every resource.
func (s *Session) Resources(ctx context.Context) iter.Seq2[*Resource, error] {
	return paginate(s, methodResourcesList, func(c string) ([]*Resource, string, error) {
		r, err := s.listResources(ctx, c)
		if err != nil {
			return nil, "", err
		}
		return r.Resources, r.NextCursor, nil
	})
}

// ResourceTemplates iterates over every resource template.
func (s *Session) ResourceTemplates(ctx context.Context) iter.Seq2[*ResourceTemplate, error] {
	return paginate(s, methodResourceTemplatesList, func(c string) ([]*ResourceTemplate, string, error) {
		r, err := s.listResourceTemplates(ctx, c)
		if err != nil {
			return nil, "", err
		}
		return r.ResourceTemplates, r.NextCursor, nil
	})
}

// paginate turns a page fetcher into an iterator over items, stopping a
// server that repeats a cursor or never stops.
func paginate[T any](s *Session, method string, page func(cursor string) ([]T, string, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		seen := map[string]bool{}
		cursor := ""
		for n := 1; ; n++ {
			items, next, err := page(cursor)
			if err != nil {
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			if seen[next] {
				yield(zero, fmt.Errorf("%w: %s returned cursor %q twice", ErrPagination, method, truncate(next, 40)))
				return
			}
			if n >= s.opts.maxPages() {
				yield(zero, fmt.Errorf("%w: %s still had more after %d pages", ErrPagination, method, n))
				return
			}
			seen[next] = true
			cursor = next
		}
	}
}

// Collect gathers everything an iterator yields. It returns what it got so
// far together with the first error.
func Collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	var all []T
	for it, err := range seq {
		if err != nil {
			return all, err
		}
		all = append(all, it)
	}
	return all, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
