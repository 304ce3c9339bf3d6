package demoserver

import (
	"context"
	"encoding/json"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// LatestVersion is the protocol version the server answers with when the
// client asks for one it does not speak.
const LatestVersion = "2025-11-25"

// versions lists the protocol versions the server speaks, oldest first. A
// client that asks for one of them gets it back from initialize.
var versions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

// methods maps each request method to its handler. Requests other than
// initialize and ping are refused until initialize has been answered.
var methods = map[string]func(ss *session, ctx context.Context, params json.RawMessage) (any, error){
	"initialize":               (*session).initialize,
	"ping":                     (*session).ping,
	"logging/setLevel":         (*session).setLevel,
	"tools/list":               (*session).listTools,
	"tools/call":               (*session).callTool,
	"prompts/list":             (*session).listPrompts,
	"prompts/get":              (*session).getPrompt,
	"completion/complete":      (*session).complete,
	"resources/list":           (*session).listResources,
	"resources/templates/list": (*session).listTemplates,
	"resources/read":           (*session).readResource,
	"resources/subscribe":      (*session).subscribe,
	"resources/unsubscribe":    (*session).unsubscribe,
	"skills/list":              (*session).listSkills,
	"skills/get":               (*session).getSkill,
	"tasks/get":                (*session).getTask,
	"tasks/result":             (*session).taskResult,
	"tasks/list":               (*session).listTasks,
	"tasks/cancel":             (*session).cancelTask,
	"tasks/update":             (*session).updateTask,
	"server/discover":          (*session).discover,
	"subscriptions/listen":     nil, // needs the request's id: see handle
}

// handle is the session's jsonrpc.Handler. Each request runs in its own
// goroutine.
func (ss *session) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if !ss.enter() {
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "server is shutting down")
	}
	defer ss.handlers.Done()
	ss.srv.log.Debug("demoserver: request", "method", req.Method, "id", req.ID)
	fn := methods[req.Method]
	_, known := methods[req.Method]
	stateless := req.Method == "server/discover" || req.Method == "subscriptions/listen"
	if !known || (stateless && !ss.stateless(req)) {
		return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: %s", req.Method)
	}
	if req.Method != "initialize" && req.Method != "ping" && !ss.stateless(req) && !ss.awaitInitialize(ctx) {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "not initialized: send initialize before %s", req.Method)
	}
	if req.Method == "subscriptions/listen" {
		return ss.listen(ctx, req.ID, req.Params)
	}
	return fn(ss, ctx, req.Params)
}

// notify is the session's jsonrpc.NotificationHandler. Notifications
// arrive one at a time, in order.
func (ss *session) notify(ctx context.Context, req *jsonrpc.Request) {
	switch req.Method {
	case "notifications/cancelled":
		var p struct {
			RequestID jsonrpc.ID `json:"requestId"`
			Reason    string     `json:"reason"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil || !p.RequestID.IsValid() {
			ss.srv.log.Warn("demoserver: ignoring malformed cancellation", "params", string(req.Params))
			return
		}
		found := ss.conn.CancelPeerRequest(p.RequestID)
		if found {
			ss.stream.settle() // the request will not be answered
		}
		ss.srv.log.Debug("demoserver: cancel requested", "id", p.RequestID, "reason", p.Reason, "found", found)
	default:
		// notifications/initialized, notifications/roots/list_changed and
		// whatever else a client sends need nothing from us.
		ss.srv.log.Debug("demoserver: notification", "method", req.Method)
	}
}

// abandon is the Conn's OnAbandon hook: when a request the server sent
// (such as sampling/createMessage) is given up because the tool call that
// made it ended, it tells the client with notifications/cancelled. It must
// not block, so the notification goes out on its own goroutine.
func (ss *session) abandon(id jsonrpc.ID, method string) {
	if !ss.enter() {
		return
	}
	go func() {
		defer ss.handlers.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ss.notifyClient(ctx, "notifications/cancelled", map[string]any{
			"requestId": id,
			"reason":    "the server no longer needs the answer to " + method,
		})
	}()
}

// awaitInitialize reports whether initialize has been answered. If an
// initialize request was read but is still being handled (a client that
// sends its next request without waiting for the answer), it waits for it.
func (ss *session) awaitInitialize(ctx context.Context) bool {
	if ss.initRead.Load() {
		select {
		case <-ss.initDone:
		case <-ctx.Done():
		}
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.initialized
}

// clientCaps records which client capabilities were declared; the values
// themselves are not needed.
type clientCaps struct {
	Sampling    json.RawMessage `json:"sampling"`
	Elicitation json.RawMessage `json:"elicitation"`
	Roots       json.RawMessage `json:"roots"`
}

func declared(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// elicitsForms reports whether the client takes form-mode elicitation: it
// declared elicitation and, if it listed modes (2025-11-25), form among them.
func (c clientCaps) elicitsForms() bool {
	if !declared(c.Elicitation) {
		return false
	}
	var modes map[string]json.RawMessage
	if json.Unmarshal(c.Elicitation, &modes) != nil {
		return false
	}
	_, form := modes["form"]
	_, url := modes["url"]
	return form || !url
}

type implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

type initializeResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    map[string]any `json:"capabilities"`
	ServerInfo      implementation `json:"serverInfo"`
	Instructions    string         `json:"instructions,omitempty"`
}

func (ss *session) initialize(ctx context.Context, params json.RawMessage) (any, error) {
	defer ss.initOnce.Do(func() { close(ss.initDone) })
	var p struct {
		ProtocolVersion string     `json:"protocolVersion"`
		Capabilities    clientCaps `json:"capabilities"`
	}
	if err := decodeParams("initialize", params, &p); err != nil {
		return nil, err
	}
	version := LatestVersion
	for _, v := range versions {
		if v == p.ProtocolVersion {
			version = v
		}
	}

	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.initialized {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "already initialized")
	}
	ss.initialized = true
	ss.version = version
	ss.client = p.Capabilities
	caps := map[string]any{
		"tools":       map[string]bool{"listChanged": true},
		"prompts":     map[string]bool{"listChanged": true},
		"resources":   map[string]bool{"subscribe": true, "listChanged": true},
		"logging":     struct{}{},
		"completions": struct{}{},
		"extensions":  map[string]any{skillsExtension: struct{}{}},
	}
	if version == "2025-11-25" { // tasks came with it
		caps["tasks"] = map[string]any{"list": struct{}{}, "cancel": struct{}{},
			"requests": map[string]any{"tools": map[string]any{"call": struct{}{}}}}
	}
	return &initializeResult{
		ProtocolVersion: version,
		Capabilities:    caps,
		ServerInfo:      implementation{Name: ss.srv.name, Title: "plainmcp demo server", Version: Version},
		Instructions:    ss.srv.instructions,
	}, nil
}

func (ss *session) ping(context.Context, json.RawMessage) (any, error) {
	return struct{}{}, nil
}

// logLevels are the MCP logging levels, least severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// defaultLogLevel is "info": until the client calls logging/setLevel,
// debug messages are not sent.
const defaultLogLevel = 1

func levelIndex(level string) int {
	for i, l := range logLevels {
		if l == level {
			return i
		}
	}
	return -1
}

func (ss *session) setLevel(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Level string `json:"level"`
	}
	if err := decodeParams("logging/setLevel", params, &p); err != nil {
		return nil, err
	}
	i := levelIndex(p.Level)
	if i < 0 {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "logging/setLevel: unknown level %q", p.Level)
	}
	ss.mu.Lock()
	ss.level = i
	ss.mu.Unlock()
	return struct{}{}, nil
}

// decodeParams decodes a request's params into v, answering -32602 when
// they do not fit. Absent params decode as an empty object.
func decodeParams(method string, params json.RawMessage, v any) error {
	if len(params) == 0 {
		return nil
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc.NewError(jsonrpc.CodeInvalidParams, "%s: invalid params: %v", method, err)
	}
	return nil
}

// notifyClient sends a notification to the client. A failure means the
// connection is going away; it is logged and otherwise ignored.
func (ss *session) notifyClient(ctx context.Context, method string, params any) {
	if err := ss.conn.Notify(ctx, method, params); err != nil {
		ss.srv.log.Debug("demoserver: could not notify", "method", method, "error", err)
	}
}

// invalidParams returns a JSON-RPC error with the invalid-params code (-32602).
func invalidParams(format string, args ...any) error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams, format, args...)
}
