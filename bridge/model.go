package bridge

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// Model answers an MCP sampling request: a conversation, optionally with
// tools, in; the model's next message out. The adapters in this package
// ([OpenAI], [Anthropic]) are Models; any other host model can be one too.
// A Model must be safe for concurrent use: servers may sample in parallel.
type Model interface {
	CreateMessage(ctx context.Context, p *mcpclient.CreateMessageParams) (*mcpclient.CreateMessageResult, error)
}

// Sampling returns m as a session's sampling handler. Set it as
// [mcpclient.Options].Sampling, with SamplingTools true when the servers
// may hand the model tools (both adapters take them).
//
// Every failure reaches the server as a JSON-RPC error: an error m returns
// that is not already a *[jsonrpc.Error] is answered as an internal error
// with its text, and a cancelled request stays the context's error. A
// request with toolChoice "required" whose answer calls no tool is an
// error, not an answer.
func Sampling(m Model) mcpclient.SamplingHandler {
	return func(ctx context.Context, p *mcpclient.CreateMessageParams) (*mcpclient.CreateMessageResult, error) {
		res, err := m.CreateMessage(ctx, p)
		if err != nil {
			var rpcErr *jsonrpc.Error
			if errors.As(err, &rpcErr) || ctx.Err() != nil {
				return nil, err
			}
			return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "%s", err.Error())
		}
		if err := checkRequired(p, res); err != nil {
			return nil, err
		}
		return res, nil
	}
}

// finish completes a provider's answer: one with no content gets an empty
// text (MCP's content is never empty), and its stop reason becomes MCP's
// where stopReasons maps it, else passes as it is.
func finish(res *mcpclient.CreateMessageResult, reason string, stopReasons map[string]string) *mcpclient.CreateMessageResult {
	if len(res.Content) == 0 {
		res.Content = mcpclient.ContentList{{Type: "text", Text: ""}}
	}
	res.StopReason = stopReasons[reason]
	if res.StopReason == "" {
		res.StopReason = reason
	}
	return res
}

// checkRequired reports a "required" tool choice that the answer ignored.
func checkRequired(p *mcpclient.CreateMessageParams, res *mcpclient.CreateMessageResult) error {
	if p.ToolChoice == nil || p.ToolChoice.Mode != "required" || len(p.Tools) == 0 {
		return nil
	}
	if slices.ContainsFunc(res.Content, func(c mcpclient.Content) bool { return c.Type == "tool_use" }) {
		return nil
	}
	return jsonrpc.NewError(jsonrpc.CodeInternalError,
		"the model %q called no tool although the request's toolChoice was \"required\"", res.Model)
}

// pickModel chooses the model for a request: the first of the server's
// hints that matches the host's map wins, else the default. A hint matches
// a key of models equal to it or, failing that, a model name containing it
// (the spec treats hints as substrings of model names); keys are tried in
// sorted order, so the choice never depends on map order.
func pickModel(prefs *mcpclient.ModelPreferences, models map[string]string, def string) string {
	if prefs == nil || len(models) == 0 {
		return def
	}
	keys := make([]string, 0, len(models))
	for k := range models {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, h := range prefs.Hints {
		if h.Name == "" {
			continue
		}
		if m, ok := models[h.Name]; ok {
			return m
		}
		for _, k := range keys {
			if strings.Contains(models[k], h.Name) {
				return models[k]
			}
		}
	}
	return def
}
