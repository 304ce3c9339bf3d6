package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// The scenarios of the 2026-07-28 (stateless) wire. The session detects
// the era by itself; nothing here speaks the wire directly.

func init() {
	scenarios["request-metadata"] = listTools
	scenarios["json-schema-ref-no-deref"] = listTools
	scenarios["http-standard-headers"] = exerciseEverything
	scenarios["http-custom-headers"] = customHeaderCalls
	// The session leaves out tools with invalid x-mcp-header annotations,
	// so calling every listed tool calls only the valid one.
	scenarios["http-invalid-tool-headers"] = callTools
	scenarios["json-schema-2020-12-preservation"] = echoSchema
	scenarios["sep-2322-client-request-state"] = inputRequiredRounds
}

// exerciseEverything uses every tool, resource and prompt, so every
// request that carries standard headers is sent.
func exerciseEverything(ctx context.Context, sc *scenarioEnv) error {
	return sc.withSession(ctx, nil, func(s *mcpclient.Session) error {
		if err := callAll(ctx, s); err != nil {
			return err
		}
		resources, err := mcpclient.Collect(s.Resources(ctx))
		if err != nil {
			return err
		}
		for _, r := range resources {
			if _, err := s.ReadResource(ctx, r.URI); err != nil {
				return err
			}
		}
		prompts, err := mcpclient.Collect(s.Prompts(ctx))
		if err != nil {
			return err
		}
		for _, p := range prompts {
			if _, err := s.GetPrompt(ctx, p.Name, nil); err != nil {
				return err
			}
		}
		return nil
	})
}

// customHeaderCalls makes the tool calls MCP_CONFORMANCE_CONTEXT lists.
func customHeaderCalls(ctx context.Context, sc *scenarioEnv) error {
	var calls []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(sc.context["toolCalls"], &calls); err != nil {
		return fmt.Errorf("MCP_CONFORMANCE_CONTEXT.toolCalls: %w", err)
	}
	return sc.withSession(ctx, nil, func(s *mcpclient.Session) error {
		if _, err := mcpclient.Collect(s.Tools(ctx)); err != nil {
			return err
		}
		for _, c := range calls {
			if _, err := s.CallTool(ctx, c.Name, c.Arguments); err != nil {
				return err
			}
		}
		return nil
	})
}

// echoSchema sends a tool's input schema back as it was received.
func echoSchema(ctx context.Context, sc *scenarioEnv) error {
	return sc.withSession(ctx, nil, func(s *mcpclient.Session) error {
		focal, err := findTool(ctx, s, "json_schema_2020_12_tool")
		if err != nil {
			return err
		}
		_, err = s.CallTool(ctx, "json_schema_echo", map[string]any{"schema": focal.InputSchema})
		return err
	})
}

// inputRequiredRounds calls the tools that answer input_required. While the
// session fulfils the first one's elicitation, an unrelated call is made:
// it must carry nothing of the other call's round.
func inputRequiredRounds(ctx context.Context, sc *scenarioEnv) error {
	var s *mcpclient.Session
	unrelatedDone := false
	opts := &mcpclient.Options{
		Elicitation: func(ctx context.Context, p *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
			if !unrelatedDone {
				unrelatedDone = true
				if _, err := s.CallTool(ctx, "test_mrtr_unrelated", map[string]any{}); err != nil {
					return nil, err
				}
			}
			return &mcpclient.ElicitResult{Action: "accept", Content: map[string]any{"confirmed": true}}, nil
		},
	}
	s, err := sc.connect(ctx, opts)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := mcpclient.Collect(s.Tools(ctx)); err != nil {
		return err
	}
	for _, name := range []string{"test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_no_result_type"} {
		if _, err := s.CallTool(ctx, name, map[string]any{}); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
