package bridge

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// Defaults of [RunOptions].
const (
	defaultMaxTurns           = 10
	defaultMaxTokens          = 4096
	defaultMaxCallsPerTurn    = 16
	defaultMaxConcurrentCalls = 4
)

// ErrTurnLimit is returned by [Run] when the model still wanted tools
// after the last turn it was allowed.
var ErrTurnLimit = errors.New("bridge: turn limit reached")

// RunOptions tune [Run]. A nil *RunOptions gives the defaults, which are
// meant for a model that reads untrusted text: no tool runs without the
// approver's consent, at most 16 of them a turn and 4 at once, each
// result capped at 64 KiB.
type RunOptions struct {
	// SystemPrompt, if set, goes with every model turn.
	SystemPrompt string
	// History is the conversation so far, as an earlier Run returned it
	// in Transcript.Messages: the question continues it, and the new
	// transcript begins with it. Tool calls it left unanswered (a run
	// cut short) are answered as not run.
	History []mcpclient.SamplingMessage

	// Retry, if set, is asked about every call that failed, before the
	// model hears of it: true makes the call once more, with the same
	// arguments, and the model gets the second answer. It is how a host
	// does what the server needs of a person first — pages to visit
	// (a -32042 answer: [mcpclient.URLElicitations]), a step-up
	// authorization — and never something the model may do: the failure's
	// text is the server's, so the host asks the person, not the model.
	// It runs on the call's goroutine; calls of one turn may fail at once,
	// so a host serializes what it asks. A panic counts as false.
	Retry func(ctx context.Context, call toolreg.Call, err error) bool

	// Approve decides every tool call that needs consent, before it
	// runs: nil lets it run, an error refuses it, and the model reads the
	// error's text as the call's failed result. It has the shape of
	// toolreg.Options.Approve, so a host may hand Run the approver it
	// gives its registry; Run calls it from its own goroutine, one call
	// at a time, in the order of the model's calls. A nil Approve refuses
	// every call that needs consent.
	//
	// A call needs consent unless its server is one the host trusts
	// (TrustAnnotations) and marks the tool read-only (annotations
	// readOnlyHint true, destructiveHint not true). Annotations are the
	// server's word about its own tool: the specification has clients
	// treat them as untrusted unless they come from a trusted server, as
	// a server may mark anything read-only. The registry's own approver,
	// if it has one, is asked as well, by the registry, as for any call.
	Approve func(ctx context.Context, call toolreg.Call) error
	// TrustAnnotations reports whether the host trusts the annotations
	// of server's tools: a call of a tool such a server marks read-only
	// then runs without Approve. Nil trusts no server, and every call
	// goes to Approve.
	TrustAnnotations func(server string) bool

	// Tools, if not empty, names the only tools offered to the model
	// (exposed names, mcp__server__tool); ToolFilter, if set, offers only
	// the tools it returns true for. Both may be set. A call to a tool
	// that was not offered is refused without reaching the registry.
	Tools      []string
	ToolFilter func(toolreg.Tool) bool

	// ToolSearch is how the offered tools reach the model: "off" sends
	// every definition with every request; "on" sends a host tool,
	// search_tools (query, limit), whose result lists the matching tools
	// (found by the registry's SearchTools), whose definitions are then
	// offered from the next request on, appended after those offered
	// before, so that the tools array's prefix never changes within a
	// conversation and a provider's prompt cache keeps working; "auto",
	// the default (""), is "on" when the definitions would take more than
	// ToolSearchShare of ContextWindow (counting a token for every 4
	// bytes of definitions), decided at a Run's first request (a
	// conversation that searched before searches again). In search mode a call of an offered tool not yet loaded is
	// loaded, not refused, and consent and every bound apply to found
	// tools as to any other. AlwaysLoaded names tools (exposed names)
	// whose definitions go with every request from the first.
	ToolSearch      string
	ContextWindow   int     // the model's context window in tokens (0: 128,000)
	ToolSearchShare float64 // of ContextWindow, in auto mode (0: 0.10)
	AlwaysLoaded    []string

	// MaxTurns bounds the model turns (0 means 10).
	MaxTurns int
	// MaxTokens bounds each model turn's answer (0 means 4096).
	MaxTokens int
	// MaxResultBytes caps each tool result handed to the model, whatever
	// its shape (0 means 64 KiB). A result is first rewritten into text
	// and the images providers take (JPEG, PNG, GIF, WebP; every other
	// item becomes a line of text describing it, structured content JSON
	// text when no text came); if that is more than MaxResultBytes, the
	// whole becomes one text cut to it, ending in a note of what was left
	// out. A call that could not be made is a failed result carrying the
	// error's text, held to the same cap.
	MaxResultBytes int
	// MaxCallsPerTurn bounds the tool calls of one model turn that run
	// (0 means 16): the model gets the rest back as failed results
	// saying so.
	MaxCallsPerTurn int
	// MaxConcurrentCalls bounds the calls in flight at once (0 means 4).
	MaxConcurrentCalls int

	// OnText, if set, gets the model's text as it comes: the adapters
	// then ask their provider to stream (see [WithStream]), unless
	// NoStream is set, in which case each turn's text comes whole.
	OnText   func(text string)
	NoStream bool
	// OnTool, if set, is told of each tool call once its turn's calls are
	// done: the model's tool_use item and the tool_result that answers it
	// (a refusal too). It is called from Run's goroutine, in the order of
	// the model's calls.
	OnTool func(use, result mcpclient.Content)
}

// withDefaults is o, or the zero options, with every zero limit set.
func (o *RunOptions) withDefaults() RunOptions {
	var r RunOptions
	if o != nil {
		r = *o
	}
	setDefault(&r.MaxTurns, defaultMaxTurns)
	setDefault(&r.MaxTokens, defaultMaxTokens)
	setDefault(&r.MaxResultBytes, defaultMaxResultBytes)
	setDefault(&r.MaxCallsPerTurn, defaultMaxCallsPerTurn)
	setDefault(&r.MaxConcurrentCalls, defaultMaxConcurrentCalls)
	return r
}

func setDefault(v *int, def int) {
	if *v <= 0 {
		*v = def
	}
}

// Transcript is what a [Run] said and did: the whole conversation as MCP
// sampling messages (the history, the question, then each model turn and
// the tool results that answered it), and the final answer. Pass
// Messages back as RunOptions.History to go on with the conversation.
type Transcript struct {
	Messages   []mcpclient.SamplingMessage `json:"messages"`
	Answer     string                      `json:"answer"`          // the text of the last model turn
	Model      string                      `json:"model"`           // as the provider named it
	StopReason string                      `json:"stopReason"`      // of the last model turn
	Turns      int                         `json:"turns"`           // model turns taken by this run
	Tools      []string                    `json:"tools,omitempty"` // the tools offered on the last turn
	// Deferred counts the tools whose definitions the last turn held
	// back in search mode (see RunOptions.ToolSearch).
	Deferred int `json:"deferred,omitempty"`
}

// Run asks m the question with the tools of reg at its disposal, and
// goes back and forth (the model's tool calls run on the registry, their
// results go back to the model) until the model answers without calling a
// tool. Each turn lists the registry's tools again and offers those that
// opts.Tools and opts.ToolFilter keep.
//
// The model reads what tools return, and a tool's output may be written
// to steer it (a web page, a file, an issue comment), so Run treats the
// model's calls as untrusted: a call to a tool not offered is refused; a
// call that needs consent runs only if opts.Approve allows it (see
// RunOptions); at most MaxCallsPerTurn calls of a turn run, at most
// MaxConcurrentCalls at once; every result is capped (MaxResultBytes).
// What is refused goes back to the model as a failed result saying why.
//
// Run returns the transcript so far with every error: the model's (a
// *jsonrpc.Error from the adapters), [ErrTurnLimit], or ctx's when it is
// cancelled. It is safe to run several at once on one registry.
func Run(ctx context.Context, m Model, reg *toolreg.Registry, question string, opts *RunOptions) (*Transcript, error) {
	o := opts.withDefaults()
	if _, err := o.searchMode(); err != nil {
		return &Transcript{}, err
	}
	tr := &Transcript{Messages: startMessages(o.History, question)}
	var search *discovery // in search mode, from the first turn on
	mctx := ctx
	if o.OnText != nil && !o.NoStream {
		mctx = WithStream(ctx, o.OnText)
	}
	for {
		if tr.Turns == o.MaxTurns {
			return tr, fmt.Errorf("%w: %d turns", ErrTurnLimit, o.MaxTurns)
		}
		tools, err := o.offer(ctx, reg, tr, &search)
		if err != nil {
			return tr, err
		}
		res, err := m.CreateMessage(mctx, o.params(tr, tools.defs))
		if err != nil {
			if ctx.Err() != nil {
				return tr, ctx.Err()
			}
			return tr, fmt.Errorf("model turn %d: %w", tr.Turns+1, err)
		}
		if o.OnText != nil && o.NoStream {
			streamWhole(res, o.OnText)
		}
		tr.Turns++
		tr.Model, tr.StopReason = res.Model, res.StopReason
		tr.Messages = append(tr.Messages, mcpclient.SamplingMessage{Role: "assistant", Content: res.Content})
		uses, text := splitTurn(res.Content)
		if len(uses) == 0 {
			tr.Answer = strings.Join(text, "\n")
			return tr, nil
		}
		results := o.turnCalls(ctx, reg, search, tools, uses)
		if err := ctx.Err(); err != nil {
			return tr, err
		}
		if o.OnTool != nil {
			for i := range uses {
				o.OnTool(uses[i], results[i])
			}
		}
		tr.Messages = append(tr.Messages, mcpclient.SamplingMessage{Role: "user", Content: results})
	}
}

// params is the sampling request of the next turn, recording the tools
// offered in tr.
func (o *RunOptions) params(tr *Transcript, defs []*mcpclient.Tool) *mcpclient.CreateMessageParams {
	tr.Tools = tr.Tools[:0]
	for _, d := range defs {
		tr.Tools = append(tr.Tools, d.Name)
	}
	p := &mcpclient.CreateMessageParams{Messages: tr.Messages, SystemPrompt: o.SystemPrompt, MaxTokens: o.MaxTokens}
	if len(defs) > 0 {
		p.Tools, p.ToolChoice = defs, &mcpclient.ToolChoice{Mode: "auto"}
	}
	return p
}

// splitTurn sorts a model turn into its tool calls and its texts.
func splitTurn(content []mcpclient.Content) (uses []mcpclient.Content, text []string) {
	for _, c := range content {
		switch c.Type {
		case "tool_use":
			uses = append(uses, c)
		case "text":
			text = append(text, c.Text)
		}
	}
	return uses, text
}

// startMessages is the history followed by the question. The question
// joins a history that ends in a user turn (tool results, say), so that
// turns keep alternating; tool calls the history left unanswered are
// answered first, as not run, as providers require.
func startMessages(history []mcpclient.SamplingMessage, question string) []mcpclient.SamplingMessage {
	msgs := slices.Clone(history)
	var open []mcpclient.Content
	if n := len(msgs); n > 0 && msgs[n-1].Role == "assistant" {
		uses, _ := splitTurn(msgs[n-1].Content)
		for _, u := range uses {
			open = append(open, refusal(u.ID, "not run: the conversation ended before this call was made"))
		}
	}
	q := append(open, textItem(question))
	if n := len(msgs); n > 0 && msgs[n-1].Role == "user" {
		last := msgs[n-1]
		last.Content = append(slices.Clone(last.Content), q...)
		msgs[n-1] = last
		return msgs
	}
	return append(msgs, mcpclient.SamplingMessage{Role: "user", Content: q})
}
