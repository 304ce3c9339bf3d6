package mcpclient

import (
	"encoding/json"

	"github.com/plainmcp/plainmcp/internal/errtype"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// URL-mode elicitation (2025-11-25) sends the user to a page of the
// server's, out of band: nothing the user types there passes through the
// client. A handshake-era server asks in one of two ways: an
// elicitation/create request with mode "url", which the Elicitation
// handler answers (accept means the user agreed to open the page, not
// that they finished there), or, when it cannot ask in the middle of a
// request, an error with code CodeURLElicitationRequired whose data lists
// the pages to visit before the request is worth sending again
// (URLElicitations reads them). Either way the server may later send
// notifications/elicitation/complete naming the elicitationId, which
// Options.OnElicitationComplete receives. The stateless era asks only
// through input requests, which carry no elicitationId and no completion:
// the request is retried with the answer, and the server judges.

// maxURLElicitations bounds how many pages one error may list: each may
// end up in front of a person.
const maxURLElicitations = 8

// URLElicitations returns the pages a URL elicitation required error
// (code CodeURLElicitationRequired, -32042) asks the user to visit, in the
// server's order: only entries of mode "url" with a URL and an
// elicitationId, at most 8. It returns nil for any other error, or for
// one whose data does not list such pages. The URLs are the server's:
// check them before anything opens one.
func URLElicitations(err error) []ElicitParams {
	var je *jsonrpc.Error
	if !errtype.As(err, &je) || je.Code != CodeURLElicitationRequired || len(je.Data) == 0 {
		return nil
	}
	var data struct {
		Elicitations []json.RawMessage `json:"elicitations"`
	}
	if json.Unmarshal(je.Data, &data) != nil {
		return nil
	}
	var out []ElicitParams
	for _, raw := range data.Elicitations {
		var p ElicitParams
		if json.Unmarshal(raw, &p) != nil || p.Mode != "url" || p.URL == "" || p.ElicitationID == "" {
			continue
		}
		p.RequestedSchema = nil
		out = append(out, p)
		if len(out) == maxURLElicitations {
			break
		}
	}
	return out
}

// elicitationComplete hands a notifications/elicitation/complete to the
// callback; one without an elicitationId is dropped.
func (s *Session) elicitationComplete(params json.RawMessage) bool {
	if s.opts.OnElicitationComplete == nil {
		return false
	}
	var p struct {
		ElicitationID string `json:"elicitationId"`
	}
	if json.Unmarshal(params, &p) == nil && p.ElicitationID != "" {
		s.opts.OnElicitationComplete(p.ElicitationID)
	}
	return true
}
