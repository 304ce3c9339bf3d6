package mcpclient

import (
	"context"
	"encoding/json"
	"time"

	"github.com/plainmcp/plainmcp/internal/logging"

	"github.com/plainmcp/plainmcp/internal/mcpext"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// SamplingHandler answers a server's sampling/createMessage request with the
// host's model. Return a *jsonrpc.Error to choose the error code the server
// sees (CodeUserRejected when the user said no).
type SamplingHandler func(ctx context.Context, req *CreateMessageParams) (*CreateMessageResult, error)

// ElicitationHandler asks the user for input on a server's behalf
// (elicitation/create) and reports what they did.
type ElicitationHandler func(ctx context.Context, req *ElicitParams) (*ElicitResult, error)

// RootsHandler lists the roots the host lets servers see (roots/list).
type RootsHandler func(ctx context.Context) ([]Root, error)

// Options configures a Session. A nil *Options is valid: it connects as
// "plainmcp", declares no client capabilities, ignores notifications, logs
// nothing and gives each request 60 seconds without an answer or progress
// (a tool call 10 minutes), 30 minutes at most with progress.
//
// The handlers and callbacks are shared by both protocol eras: in the
// handshake era they answer server→client requests, in the stateless era
// they fulfil the input requests inside results. Declaring a capability is
// automatic: sampling, elicitation and roots are announced exactly when the
// matching handler is set, the skills extension when Skills is, MCP Apps
// when UI is.
type Options struct {
	// ClientInfo names this client to the server. Zero means plainmcp's own.
	ClientInfo Implementation

	// Era pins the protocol era: EraHandshake always runs initialize,
	// EraStateless never does. Zero detects it: Connect probes with
	// server/discover and falls back to initialize.
	Era Era

	// ProtocolVersion pins the version (and with it the era), such as
	// "2025-11-25" or LatestVersion; the server must speak exactly it.
	// Empty means the newest the server speaks.
	ProtocolVersion string

	// DiscoverTimeout bounds the server/discover probe when the era is
	// detected; a server silent for that long is taken for a handshake-era
	// one. Zero means 5s. Over Streamable HTTP an answer tells sooner: an
	// event stream that carries a session id, or brings no answer within
	// a second of opening, is a handshake-era server's.
	DiscoverTimeout time.Duration

	Sampling SamplingHandler
	// SamplingTools declares sampling.tools: the Sampling handler can take
	// tools and toolChoice.
	SamplingTools bool

	Elicitation ElicitationHandler
	// ElicitationURL declares URL-mode elicitation (2025-11-25) besides form
	// mode.
	ElicitationURL bool

	Roots RootsHandler

	// Skills declares the skills extension (io.modelcontextprotocol/skills) in the
	// client's capabilities.extensions. Listing and loading skills work
	// without it, but a server may tailor what it offers to clients that
	// declare it.
	Skills bool

	// Tasks opts in to tasks, both generations, with the runner that
	// follows them — &task.Options{} from package mcpclient/task: the
	// tasks capability (handshake era) or the io.modelcontextprotocol/tasks
	// extension (stateless era) is declared, tools that run as tasks can
	// be called, and CallTool has the runner drive a task to its result.
	// Nil declares neither: a tool that requires a task is called plainly
	// (the server refuses it), and a task answer is a protocol error. A
	// nil *task.Options is off too.
	Tasks TaskRunner

	// UI declares the MCP Apps extension (io.modelcontextprotocol/ui, with
	// the MIME type text/html;profile=mcp-app):
	// the host renders tools' interfaces. Servers may offer interfaces
	// only to hosts that declare it; package apps decodes a tool's
	// _meta.ui and reads its interface, with or without it.
	UI bool

	// OnLog receives notifications/message.
	OnLog func(LogMessage)
	// OnListChanged receives "tools", "prompts" or "resources" when the
	// server says that list changed. In the stateless era the session
	// listens (subscriptions/listen) for the lists the server declared
	// listChanged for, and for no other.
	OnListChanged func(kind string)
	// OnResourceUpdated receives the URI of a subscribed resource that
	// changed.
	OnResourceUpdated func(uri string)
	// OnElicitationComplete receives the elicitationId of a URL-mode
	// elicitation the server says is finished
	// (notifications/elicitation/complete, handshake era). The id is the
	// server's: one the host never saw, or saw finish already, is to be
	// ignored.
	OnElicitationComplete func(elicitationID string)
	// OnProgress receives the progress updates that belong to no call in
	// flight: late ones (over HTTP, progress may travel on another stream
	// and arrive after the response) or ones for a token this session
	// never gave. Updates for a call in flight go to its WithProgress
	// callback.
	OnProgress func(token json.RawMessage, p Progress)
	// OnNotification receives every other notification, raw.
	OnNotification func(method string, params json.RawMessage)

	// RequestTimeout bounds how long a request waits with neither its
	// answer nor progress from the server, when the caller's context has
	// no deadline; a deadline of the caller's always wins, shorter or
	// longer. Each progress update restarts it (see MaxRequestTimeout).
	// Zero means 60s, and 10 minutes for tools/call: tools run builds,
	// queries and agents, and a host that waits on them (Claude Code
	// waits for hours unless MCP_TOOL_TIMEOUT says otherwise) must not
	// fail one at the first minute. Negative means no default bound.
	RequestTimeout time.Duration
	// MaxRequestTimeout caps a request that keeps reporting progress:
	// progress restarts its RequestTimeout, never past this from the
	// request's start. Zero means 30 minutes; negative means progress
	// restarts nothing, and RequestTimeout is a plain timeout.
	MaxRequestTimeout time.Duration

	// RepeatSafeTools lets the stateless era send a tools/call again when
	// its response was lost (a broken HTTP stream, which the server takes
	// for a cancellation) if the tool is annotated read-only or
	// idempotent. Annotations are the server's claims, so this is the
	// host's call; off, such a call fails at once with an error matching
	// jsonrpc.ErrResponseLost, as any other tool call does. Lists and
	// reads are always sent again.
	RepeatSafeTools bool

	// ManualInput turns off the automatic answering of the stateless era's
	// input-required results: a request so answered returns an
	// *InputRequiredError carrying the server's inputRequests and
	// requestState, and the caller retries through Session.Call itself.
	ManualInput bool

	// MaxPages stops a list iterator after this many pages. Zero means 1000.
	MaxPages int

	// WrapStream, if set, wraps the transport's stream before the session
	// sends anything: every frame in and out passes through what it
	// returns (transport.Trace, say, or a byte counter). The transport
	// itself still receives the agreed protocol version.
	WrapStream func(jsonrpc.Stream) jsonrpc.Stream

	// Logger receives reports of dropped frames, failed cancellations and
	// handler panics. Nil is silent.
	// A *slog.Logger serves: any value with its Debug, Info, Warn and
	// Error methods does (internal/logging says why this is no *slog.Logger).
	Logger logging.Logger
}

// Defaults of RequestTimeout and MaxRequestTimeout: see there why.
const (
	defaultRequestTimeout = 60 * time.Second
	defaultToolTimeout    = 10 * time.Minute
	defaultMaxTimeout     = 30 * time.Minute
)

// requestTimeout is the no-progress bound of a request for method: zero
// for none.
func (o *Options) requestTimeout(method string) time.Duration {
	switch {
	case o.RequestTimeout == 0 && method == methodToolsCall:
		return defaultToolTimeout
	case o.RequestTimeout == 0:
		return defaultRequestTimeout
	case o.RequestTimeout < 0:
		return 0
	}
	return o.RequestTimeout
}

// progressResets reports whether progress restarts a request's timeout.
func (o *Options) progressResets() bool { return o.MaxRequestTimeout >= 0 }

func (o *Options) maxRequestTimeout() time.Duration {
	if o.MaxRequestTimeout <= 0 {
		return defaultMaxTimeout
	}
	return o.MaxRequestTimeout
}

func (o *Options) maxPages() int {
	if o.MaxPages <= 0 {
		return 1000
	}
	return o.MaxPages
}

// capabilities derives the client capabilities from what is wired, for
// an era: the two generations of tasks are declared differently.
func (o *Options) capabilities(era Era) map[string]any {
	caps := map[string]any{}
	if o.Sampling != nil {
		s := map[string]any{}
		if o.SamplingTools {
			s["tools"] = map[string]any{}
		}
		caps["sampling"] = s
	}
	if o.Elicitation != nil {
		e := map[string]any{"form": map[string]any{}}
		if o.ElicitationURL {
			e["url"] = map[string]any{}
		}
		caps["elicitation"] = e
	}
	if o.Roots != nil {
		caps["roots"] = map[string]any{"listChanged": true}
	}
	ext := map[string]any{}
	if o.Skills {
		ext[mcpext.Skills] = map[string]any{}
	}
	switch {
	case o.Tasks != nil && era == EraStateless:
		ext[mcpext.Tasks] = map[string]any{}
	case o.Tasks != nil:
		// The client hosts no tasks of its own (no requests, list or
		// cancel): the capability says it takes part in tasks.
		caps["tasks"] = map[string]any{}
	}
	if o.UI {
		ext[mcpext.UI] = map[string]any{"mimeTypes": []string{mcpext.UIMimeType}}
	}
	if len(ext) > 0 {
		caps["extensions"] = ext
	}
	return caps
}

// quiet reports whether, in the handshake era, nothing may come from a
// server with capabilities c outside its answers (transport.Protocol.Quiet):
// it declared nothing it would send unasked, the client nothing a server
// may ask of it, and no callback wants whatever comes. A ping may still
// come on a request's own stream.
func (o *Options) quiet(c ServerCapabilities) bool {
	clientAnswers := o.Sampling != nil || o.Elicitation != nil || o.Roots != nil || o.Tasks != nil || o.OnNotification != nil
	serverSends := c.Tools != nil && c.Tools.ListChanged || c.Prompts != nil && c.Prompts.ListChanged ||
		c.Resources != nil && (c.Resources.ListChanged || c.Resources.Subscribe) ||
		len(c.Logging) > 0 || len(c.Tasks) > 0 || len(c.Experimental) > 0
	return !clientAnswers && !serverSends
}

func (o *Options) discoverTimeout() time.Duration {
	if o.DiscoverTimeout <= 0 {
		return defaultDiscoverTimeout
	}
	return o.DiscoverTimeout
}
