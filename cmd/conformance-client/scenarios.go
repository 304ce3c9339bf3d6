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
	"sse-retry":                           callTools,

	"auth/metadata-default":                     authorizationCode,
	"auth/metadata-var1":                        authorizationCode,
	"auth/metadata-var2":                        authorizationCode,
	"auth/metadata-var3":                        authorizationCode,
	"auth/basic-cimd":                           authorizationCode,
	"auth/scope-from-www-authenticate":          authorizationCode,
	"auth/scope-from-scopes-supported":          authorizationCode,
	"auth/scope-omitted-when-undefined":         authorizationCode,
	"auth/token-endpoint-auth-basic":            authorizationCode,
	"auth/token-endpoint-auth-post":             authorizationCode,
	"auth/token-endpoint-auth-none":             authorizationCode,
	"auth/pre-registration":                     authorizationCode,
	"auth/2025-03-26-oauth-metadata-backcompat": authorizationCode,
	"auth/2025-03-26-oauth-endpoint-fallback":   authorizationCode,
	"auth/resource-mismatch":                    authorizationCode,
	"auth/offline-access-scope":                 authorizationCode,
	"auth/offline-access-not-supported":         authorizationCode,
	"auth/iss-supported":                        authorizationCode,
	"auth/iss-not-advertised":                   authorizationCode,
	"auth/iss-supported-missing":                authorizationCode,
	"auth/iss-wrong-issuer":                     authorizationCode,
	"auth/iss-unexpected":                       authorizationCode,
	"auth/iss-normalized":                       authorizationCode,
	"auth/metadata-issuer-mismatch":             authorizationCode,
	"auth/scope-step-up":                        authorizationCode,
	"auth/authorization-server-migration":       authorizationCode,
	"auth/client-credentials-jwt":               clientCredentials,
	"auth/client-credentials-basic":             clientCredentials,
	"auth/scope-retry-limit":                    authorizationCode,
	"auth/dpop":                                 authorizationCode,
	"auth/dpop-nonce":                           authorizationCode,
	"auth/wif-jwt-bearer":                       workloadIdentity,
	"auth/enterprise-managed-authorization":     enterpriseManaged,
	"auth/cross-app-access-complete-flow":       enterpriseManaged,
}

// withSession connects with opts, runs fn and closes the session.
func (sc *scenarioEnv) withSession(ctx context.Context, opts *mcpclient.Options, fn func(*mcpclient.Session) error) error {
	s, err := sc.connect(ctx, opts)
	if err != nil {
		return err
	}
	defer s.Close()
	return fn(s)
}

// listTools connects and lists the tools: the handshake (or its stateless
// equivalent) is what is checked.
func listTools(ctx context.Context, sc *scenarioEnv) error {
	return sc.withSession(ctx, nil, func(s *mcpclient.Session) error {
		_, err := mcpclient.Collect(s.Tools(ctx))
		return err
	})
}

// callAll lists the tools and calls each with no arguments.
func callAll(ctx context.Context, s *mcpclient.Session) error {
	tools, err := mcpclient.Collect(s.Tools(ctx))
	if err != nil {
		return err
	}
	for _, t := range tools {
		if _, err := s.CallTool(ctx, t.Name, map[string]any{}); err != nil {
			return err
		}
	}
	return nil
}

// callAddNumbers lists the tools and calls add_numbers with two numbers.
func callAddNumbers(ctx context.Context, sc *scenarioEnv) error {
	return sc.withSession(ctx, nil, func(s *mcpclient.Session) error {
		if _, err := findTool(ctx, s, "add_numbers"); err != nil {
			return err
		}
		res, err := s.CallTool(ctx, "add_numbers", map[string]any{"a": 5, "b": 3})
		if err == nil && res.IsError {
			err = fmt.Errorf("add_numbers failed: %s", res.Text())
		}
		return err
	})
}

// callTools lists the tools and calls each of them with no arguments.
func callTools(ctx context.Context, sc *scenarioEnv) error {
	return sc.withSession(ctx, nil, func(s *mcpclient.Session) error { return callAll(ctx, s) })
}

// elicitationDefaults accepts the server's form without filling anything
// in: the session must complete it with the schema's defaults.
func elicitationDefaults(ctx context.Context, sc *scenarioEnv) error {
	opts := &mcpclient.Options{
		Elicitation: func(ctx context.Context, p *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
			return &mcpclient.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
		},
	}
	return sc.withSession(ctx, opts, func(s *mcpclient.Session) error {
		name := "test_client_elicitation_defaults"
		if _, err := findTool(ctx, s, name); err != nil {
			return err
		}
		_, err := s.CallTool(ctx, name, map[string]any{})
		return err
	})
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
