package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// Defaults of [RunOptions].
const (
	DefaultMaxTurns  = 10
	DefaultMaxTokens = 4096
)

// ErrTurnLimit is returned by [Run] when the model still wanted tools
// after the last turn it was allowed.
var ErrTurnLimit = errors.New("bridge: turn limit reached")

// RunOptions tune [Run]. A nil *RunOptions gives the defaults.
type RunOptions struct {
	// SystemPrompt, if set, goes with every model turn.
	SystemPrompt string
	// MaxTurns bounds the model turns (0 means DefaultMaxTurns).
	MaxTurns int
	// MaxTokens bounds each model turn's answer (0 means DefaultMaxTokens).
	MaxTokens int
	// MaxResultBytes caps each tool result handed to the model (0 means
	// DefaultMaxResultBytes); see [ToolResult].
	MaxResultBytes int
	// OnText, if set, gets the model's text as it comes: the adapters
	// then ask their provider to stream (see [WithStream]).
	OnText func(text string)
	// OnTool, if set, is told of each tool call once it is done: the
	// model's tool_use item and the tool_result that answers it. It is
	// called from Run's goroutine, in the order of the model's calls.
	OnTool func(use, result mcpclient.Content)
}

// Transcript is what a [Run] said and did: the whole conversation as MCP
// sampling messages (the question, then each model turn and the tool
// results that answered it), and the final answer.
type Transcript struct {
	Messages   []mcpclient.SamplingMessage `json:"messages"`
	Answer     string                      `json:"answer"`     // the text of the last model turn
	Model      string                      `json:"model"`      // as the provider named it
	StopReason string                      `json:"stopReason"` // of the last model turn
	Turns      int                         `json:"turns"`      // model turns taken
}

// Run asks m the question with every tool of reg at its disposal, and
// goes back and forth (the model's tool calls run on the registry, their
// results go back to the model) until the model answers without calling a
// tool. The tool calls of one turn run concurrently; each passes the
// registry's approver and hooks like any call; a call the registry cannot
// make, or refuses, goes back to the model as a failed result.
//
// Run returns the transcript so far with every error: the model's (a
// *jsonrpc.Error from the adapters), [ErrTurnLimit], or ctx's when it is
// cancelled. It is safe to run several at once on one registry.
func Run(ctx context.Context, m Model, reg *toolreg.Registry, question string, opts *RunOptions) (*Transcript, error) {
	var o RunOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxTurns <= 0 {
		o.MaxTurns = DefaultMaxTurns
	}
	if o.MaxTokens <= 0 {
		o.MaxTokens = DefaultMaxTokens
	}
	if o.MaxResultBytes <= 0 {
		o.MaxResultBytes = DefaultMaxResultBytes
	}
	tr := &Transcript{Messages: []mcpclient.SamplingMessage{
		{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: question}}},
	}}
	// Only the tools visible to the model (MCP Apps' visibility) are
	// offered, and only those it was offered may it call.
	tools, err := reg.ModelTools(ctx)
	if err != nil {
		return tr, fmt.Errorf("listing the tools: %w", err)
	}
	offered := make(map[string]bool, len(tools))
	for _, t := range tools {
		offered[t.Name] = true
	}
	defs := Definitions(tools)
	var choice *mcpclient.ToolChoice
	if len(defs) > 0 {
		choice = &mcpclient.ToolChoice{Mode: "auto"}
	}
	mctx := ctx
	if o.OnText != nil {
		mctx = WithStream(ctx, o.OnText)
	}
	for {
		if tr.Turns == o.MaxTurns {
			return tr, fmt.Errorf("%w: %d turns", ErrTurnLimit, o.MaxTurns)
		}
		res, err := m.CreateMessage(mctx, &mcpclient.CreateMessageParams{
			Messages: tr.Messages, SystemPrompt: o.SystemPrompt, MaxTokens: o.MaxTokens,
			Tools: defs, ToolChoice: choice,
		})
		if err != nil {
			if ctx.Err() != nil {
				return tr, ctx.Err()
			}
			return tr, fmt.Errorf("model turn %d: %w", tr.Turns+1, err)
		}
		tr.Turns++
		tr.Model, tr.StopReason = res.Model, res.StopReason
		tr.Messages = append(tr.Messages, mcpclient.SamplingMessage{Role: "assistant", Content: res.Content})
		var uses []mcpclient.Content
		var text []string
		for _, c := range res.Content {
			switch c.Type {
			case "tool_use":
				uses = append(uses, c)
			case "text":
				text = append(text, c.Text)
			}
		}
		if len(uses) == 0 {
			tr.Answer = strings.Join(text, "\n")
			return tr, nil
		}
		results := callTools(ctx, reg, offered, uses, o.MaxResultBytes)
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

// callTools runs the model's tool calls concurrently and returns their
// results in the same order.
func callTools(ctx context.Context, reg *toolreg.Registry, offered map[string]bool, uses []mcpclient.Content, limit int) []mcpclient.Content {
	results := make([]mcpclient.Content, len(uses))
	var wg sync.WaitGroup
	for i, u := range uses {
		if !offered[u.Name] {
			err := fmt.Errorf("%w: %q was not offered to the model", toolreg.ErrUnknownTool, u.Name)
			results[i] = ToolResult(u.ID, nil, err, limit)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := reg.Call(ctx, u.Name, json.RawMessage(objectOrEmpty(u.Input)))
			results[i] = ToolResult(u.ID, res, err, limit)
		}()
	}
	wg.Wait()
	return results
}
