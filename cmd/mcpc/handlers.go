package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/plainmcp/plainmcp/bridge"
	"github.com/plainmcp/plainmcp/cmd/mcpc/internal/formbound"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// wireHandlers gives the session the host handlers the flags ask for.
// Sampling goes to a provider's model (PROVIDER:NAME), or to "echo", which
// exists to try servers out.
// Without --elicitation, a person at a terminal is asked (ask, if not nil).
func wireHandlers(cfg *config, opts *mcpclient.Options, ask *asker) error {
	switch cfg.sampling {
	case "":
	case "echo":
		opts.Sampling = echoSampling
	default:
		if !strings.Contains(cfg.sampling, ":") {
			return usageError{fmt.Sprintf(`--sampling %q: want "echo" or PROVIDER:NAME`, cfg.sampling)}
		}
		m, err := modelFromSpec(cfg.sampling, cfg)
		if err != nil {
			return err
		}
		opts.Sampling, opts.SamplingTools = bridge.Sampling(m), true
	}
	switch cfg.elicitation {
	case "":
		if ask != nil {
			opts.Elicitation = ask.elicit
		}
	case "defaults":
		opts.Elicitation = acceptDefaults
	case "decline":
		opts.Elicitation = func(context.Context, *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
			return &mcpclient.ElicitResult{Action: "decline"}, nil
		}
	default:
		return usageError{fmt.Sprintf(`--elicitation %q: want "defaults" or "decline"`, cfg.elicitation)}
	}
	if len(cfg.roots) > 0 {
		roots := make([]mcpclient.Root, len(cfg.roots))
		for i, uri := range cfg.roots {
			roots[i] = mcpclient.Root{URI: uri}
		}
		opts.Roots = func(context.Context) ([]mcpclient.Root, error) { return roots, nil }
	}
	return nil
}

// echoSampling answers with the text of the last message.
func echoSampling(ctx context.Context, p *mcpclient.CreateMessageParams) (*mcpclient.CreateMessageResult, error) {
	text := ""
	if n := len(p.Messages); n > 0 {
		for _, c := range p.Messages[n-1].Content {
			if c.Type == "text" {
				text = c.Text
			}
		}
	}
	return &mcpclient.CreateMessageResult{
		Role:       "assistant",
		Content:    mcpclient.ContentList{{Type: "text", Text: "echo: " + text}},
		Model:      "mcpc-echo",
		StopReason: "endTurn",
	}, nil
}

// acceptDefaults accepts a form with the default of every field that has
// one, and declines URL-mode requests (which withVisits takes first when
// a person or --open-urls can open the page) and
// forms with a required field that has no default: such a field is never
// sent missing.
func acceptDefaults(ctx context.Context, p *mcpclient.ElicitParams) (*mcpclient.ElicitResult, error) {
	if p.Mode == "url" {
		return &mcpclient.ElicitResult{Action: "decline"}, nil
	}
	fields, err := formFields(p.RequestedSchema)
	if errors.Is(err, formbound.ErrTooLarge) {
		return &mcpclient.ElicitResult{Action: "decline"}, nil // a form no one would fill in
	}
	if err != nil {
		return nil, err
	}
	content := map[string]any{}
	for _, f := range fields {
		switch {
		case f.Default != nil:
			content[f.name] = f.Default
		case f.required:
			return &mcpclient.ElicitResult{Action: "decline"}, nil
		}
	}
	return &mcpclient.ElicitResult{Action: "accept", Content: content}, nil
}
