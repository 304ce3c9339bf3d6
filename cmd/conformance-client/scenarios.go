package main

import (
	"context"
	"fmt"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// scenarios maps each supported scenario to what the client does in it.
var scenarios = map[string]func(ctx context.Context, sc *scenarioEnv) error{
	"initialize":                          listTools,
	"tools_call":                          callAddNumbers,
	"elicitation-sep1034-client-defaults": elicitationDefaults,
	"sse-retry":                           callFirstTool,
}

// listTools connects and lists the tools: the handshake (or its stateless
// equivalent) is what is checked.
func listTools(ctx context.Context, sc *scenarioEnv) error {
	s, err := sc.connect(ctx, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	_, err = mcpclient.Collect(s.Tools(ctx))
	return err
}

// callAddNumbers lists the tools and calls add_numbers with two numbers.
func callAddNumbers(ctx context.Context, sc *scenarioEnv) error {
	s, err := sc.connect(ctx, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := findTool(ctx, s, "add_numbers"); err != nil {
		return err
	}
	res, err := s.CallTool(ctx, "add_numbers", map[string]any{"a": 5, "b": 3})
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("add_numbers failed: %s", res.Text())
	}
	return nil
}

// callFirstTool lists the tools and calls the first one with no arguments.
func callFirstTool(ctx context.Context, sc *scenarioEnv) error {
	s, err := sc.connect(ctx, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	tools, err := mcpclient.Collect(s.Tools(ctx))
	if err != nil {
		return err
	}
	if len(tools) == 0 {
		return fmt.Errorf("the server lists no tools")
	}
	_, err = s.CallTool(ctx, tools[0].Name, map[string]any{})
	return err
}

// elicitationDefaults accepts the server's form without filling anything
// in: the session must complete it with the schema's defaults.
func elicitationDefaults(ctx context.Context, sc *scenarioEnv) error {
	s, err := sc.connect(ctx, &mcpclient.Options{
		Elicitation: func(ctx context.Context, p *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
			return &mcpclient.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
	})
	if err != nil {
		return err
	}
	defer s.Close()
	name := "test_client_elicitation_defaults"
	if _, err := findTool(ctx, s, name); err != nil {
		return err
	}
	_, err = s.CallTool(ctx, name, map[string]any{})
	return err
}

// findTool lists the tools and returns the one named name.
func findTool(ctx context.Context, s *mcpclient.Session, name string) (*mcpclient.Tool, error) {
	for t, err := range s.Tools(ctx) {
		if err != nil {
			return nil, err
		}
		if t.Name == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("the server does not list the tool %q", name)
}
