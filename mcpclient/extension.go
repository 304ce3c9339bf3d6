package mcpclient

import (
	"context"
	"encoding/json"
	"iter"
)

// An extension's own list methods (the skills extension's skills/list, in
// package mcpclient/skill; tasks/list) are fetched the way the session's
// lists are, through the two methods below that the extensions reach by
// package mcpclient/internal/ext (ext.Session): a page at a time through
// ListPage, which in the stateless era serves a page the server let the
// client cache, and every item through Paginate, which stops at a cursor
// seen before and at Options.MaxPages.

// ListPage fetches the page of method that cursor names ("" for the
// first) into page, a pointer to the struct its result decodes into. In
// the stateless era a fresh page the server marked cacheable (ttlMs,
// cacheScope) comes from the session's cache.
func (e extSession) ListPage(ctx context.Context, method, cursor string, page any) error {
	return e.s.listPage(ctx, method, cursor, &anyPage{page: page})
}

// Paginate iterates over every item of a paginated list, fetching each
// page with page(cursor), which returns the page's items and the next
// cursor ("" after the last). A cursor returned twice, or more pages than
// Options.MaxPages, ends the iteration with an error wrapping
// ErrPagination; any error ends it as its last pair. ext.Paginate gives
// it the extension's item type.
func (e extSession) Paginate(method string, page func(cursor string) ([]any, string, error)) iter.Seq2[any, error] {
	return paginate(e.s, method, page)
}

// anyPage gives a caller's page type the result envelope that the
// stateless era's cache reads.
type anyPage struct {
	page any
	resultEnvelope
}

func (p *anyPage) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, p.page); err != nil {
		return err
	}
	return json.Unmarshal(b, &p.resultEnvelope)
}
