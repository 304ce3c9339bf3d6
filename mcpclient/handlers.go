package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// handleRequest answers the server's requests (handshake era). Each runs in
// its own goroutine, so a sampling request that waits a minute for a model
// stalls nothing else. Options.Tasks adds to the answer of a request
// that belongs to a task what the task requires.
func (s *Session) handleRequest(ctx context.Context, req *jsonrpc.Request) (any, error) {
	res, err := s.answerRequest(ctx, req)
	if err != nil || s.tasks == nil {
		return res, err
	}
	return s.tasks.Answered(req, res), nil
}

func (s *Session) answerRequest(ctx context.Context, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case methodPing:
		return struct{}{}, nil
	case methodSampling:
		if s.opts.Sampling == nil {
			break
		}
		var p CreateMessageParams
		if err := decodeParams(req, &p); err != nil {
			return nil, err
		}
		return s.sample(ctx, &p)
	case methodElicitation:
		if s.opts.Elicitation == nil {
			break
		}
		var p ElicitParams
		if err := decodeParams(req, &p); err != nil {
			return nil, err
		}
		return s.elicit(ctx, &p)
	case methodRootsList:
		if s.opts.Roots == nil {
			break
		}
		return s.listRoots(ctx)
	}
	return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: %s", req.Method)
}

// The three host handlers below are shared by both eras: a server request
// here, an input request inside a result in the stateless era.

func (s *Session) sample(ctx context.Context, p *CreateMessageParams) (*CreateMessageResult, error) {
	res, err := s.opts.Sampling(ctx, p)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "sampling handler returned no result")
	}
	return res, nil
}

func (s *Session) elicit(ctx context.Context, p *ElicitParams) (*ElicitResult, error) {
	res, err := s.opts.Elicitation(ctx, p)
	if err != nil {
		return nil, err
	}
	if res == nil || (res.Action != "accept" && res.Action != "decline" && res.Action != "cancel") {
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "elicitation handler returned no valid action")
	}
	if res.Action == "accept" && p.Mode != "url" {
		res.Content = withDefaults(res.Content, p.RequestedSchema)
	}
	return res, nil
}

// withDefaults fills in, from a form's requested schema, the default of
// every top-level field the user's answer left out (SEP-1034), so a form
// accepted as it was shown carries the values it showed. Defaults keep
// their JSON types; fields the user gave are never touched.
func withDefaults(content map[string]any, schema json.RawMessage) map[string]any {
	var s struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return content
	}
	for name, prop := range s.Properties {
		if len(prop.Default) == 0 || string(prop.Default) == "null" {
			continue
		}
		if _, given := content[name]; given {
			continue
		}
		var v any
		if json.Unmarshal(prop.Default, &v) != nil {
			continue
		}
		if content == nil {
			content = map[string]any{}
		}
		content[name] = v
	}
	return content
}

func (s *Session) listRoots(ctx context.Context) (any, error) {
	roots, err := s.opts.Roots(ctx)
	if err != nil {
		return nil, err
	}
	if roots == nil {
		roots = []Root{}
	}
	return struct {
		Roots []Root `json:"roots"`
	}{roots}, nil
}

func decodeParams(req *jsonrpc.Request, v any) error {
	if len(req.Params) == 0 {
		return jsonrpc.NewError(jsonrpc.CodeInvalidParams, "%s: params missing", req.Method)
	}
	if err := json.Unmarshal(req.Params, v); err != nil {
		return jsonrpc.NewError(jsonrpc.CodeInvalidParams, "%s: %v", req.Method, err)
	}
	return nil
}

// intercept handles, on the read loop, the notifications whose effect must
// be in place before later frames are processed: progress (so it is
// recorded before the response it precedes), cancellation (so a handler
// is stopped before anything else happens) and a list's change (so a
// list asked for after the response it precedes is not the cached one).
// The session's own waiters hear here too, of a task's status and of a
// subscription's acknowledgement: a slow callback must not hold them up.
// Returning false, the callbacks still hear of it in order with the rest.
func (s *Session) intercept(n *jsonrpc.Request) bool {
	switch n.Method {
	case noteToolsChanged, notePromptsChanged, noteResourcesChanged:
		s.forgetList(n.Method)
		return false
	case noteTaskStatus:
		if s.tasks != nil {
			s.tasks.StatusNotice(n.Params)
		}
		return false
	case noteSubscriptionsAcked:
		s.acknowledged(n.Params)
		return false
	case noteProgress:
		var p struct {
			Token json.RawMessage `json:"progressToken"`
			Progress
		}
		if json.Unmarshal(n.Params, &p) != nil {
			return true // not progress we can read; nothing to do
		}
		token, ok := progressTokenKey(p.Token)
		s.progressMu.Lock()
		defer s.progressMu.Unlock() // the watch lives only while it is in the map
		w := s.progress[token]
		if !ok || w == nil {
			return false // no call waits for it: OnProgress, in order
		}
		w.progressed(p.Progress)
		return true
	case noteCancelled:
		var p struct {
			RequestID jsonrpc.ID `json:"requestId"`
		}
		if json.Unmarshal(n.Params, &p) == nil && p.RequestID.IsValid() {
			<-s.connReady
			s.conn.CancelPeerRequest(p.RequestID)
		}
		return true
	}
	return false
}

// handleNotification dispatches the server's other notifications, in order,
// on the conn's notification goroutine.
func (s *Session) handleNotification(ctx context.Context, n *jsonrpc.Request) {
	handled := false // by a callback of its own; else OnNotification hears it
	switch n.Method {
	case noteProgress:
		handled = s.lateProgress(n.Params)
	case noteMessage:
		handled = s.logMessage(n.Params)
	case noteToolsChanged, notePromptsChanged, noteResourcesChanged:
		handled = s.listChanged(n.Method)
	case noteElicitationComplete:
		handled = s.elicitationComplete(n.Params)
	case noteResourceUpdated:
		handled = s.resourceUpdated(n.Params)
	}
	if !handled && s.opts.OnNotification != nil {
		s.opts.OnNotification(n.Method, n.Params)
	}
}

// lateProgress hands OnProgress the progress that belongs to no call in
// flight. It never reaches OnNotification.
func (s *Session) lateProgress(params json.RawMessage) bool {
	var p struct {
		Token json.RawMessage `json:"progressToken"`
		Progress
	}
	if s.opts.OnProgress != nil && json.Unmarshal(params, &p) == nil {
		s.opts.OnProgress(p.Token, p.Progress)
	} else {
		s.log.Debug("mcpclient: progress for no call in flight", "token", string(p.Token))
	}
	return true
}

// logMessage hands notifications/message to OnLog, reporting whether
// there was one.
func (s *Session) logMessage(params json.RawMessage) bool {
	if s.opts.OnLog == nil {
		return false
	}
	var m LogMessage
	if json.Unmarshal(params, &m) == nil {
		s.opts.OnLog(m)
	}
	return true
}

// listKind is the list a */list_changed names: "tools" …
func listKind(method string) string {
	return method[len("notifications/") : len(method)-len("/list_changed")]
}

// forgetList forgets the cached list a */list_changed names. Skills are
// resources, so the skills extension's listing goes with them.
func (s *Session) forgetList(method string) {
	kind := listKind(method)
	s.cache.forget(kind + "/list")
	if kind == "resources" {
		s.cache.forget(methodResourceTemplatesList)
		s.cache.forget("skills/list")
	}
}

// listChanged tells OnListChanged of a */list_changed, reporting whether
// there was one to tell.
func (s *Session) listChanged(method string) bool {
	if s.opts.OnListChanged == nil {
		return false
	}
	s.opts.OnListChanged(listKind(method))
	return true
}

// resourceUpdated hands notifications/resources/updated to
// OnResourceUpdated, reporting whether there was one.
func (s *Session) resourceUpdated(params json.RawMessage) bool {
	if s.opts.OnResourceUpdated == nil {
		return false
	}
	var p struct {
		URI string `json:"uri"`
	}
	if json.Unmarshal(params, &p) == nil {
		s.opts.OnResourceUpdated(p.URI)
	}
	return true
}

// progressTokenKey reads a token as it came back: the server echoes ours,
// a JSON string of digits or the bare number. Any other token is none of
// ours.
func progressTokenKey(raw json.RawMessage) (int64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 1 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		raw = raw[1 : len(raw)-1]
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil && n > 0
}

// NotifyRootsChanged tells the server the roots list changed
// (notifications/roots/list_changed); it will ask for it again.
func (s *Session) NotifyRootsChanged(ctx context.Context) error {
	if s.opts.Roots == nil {
		return fmt.Errorf("mcpclient: NotifyRootsChanged: no Roots handler, so the roots capability was not declared")
	}
	return s.conn.Notify(ctx, noteRootsChanged, nil)
}
