package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
)

// askConfig is what ask's own flags say.
type askConfig struct {
	yes        bool     // --yes: every call that needs consent runs
	allow      []string // --allow PATTERN: calls of these tools run without asking
	trust      []string // --trust-annotations SERVER: their read-only marks are believed
	tools      []string // --tools PATTERN: offer only these tools
	cont       string   // --continue FILE: the conversation to go on with, and to save
	noStream   bool     // --no-stream: ask the provider for whole answers
	tokenField string   // --max-tokens-field: the OpenAI request field of the token limit
	toolSearch string   // --tool-search: auto, on or off
}

// register adds ask's flags to the command line's.
func (a *askConfig) register(fs *flag.FlagSet) {
	fs.BoolVar(&a.yes, "yes", false, "ask and web: run every tool call that needs consent, without asking")
	fs.Var((*patternFlag)(&a.allow), "allow", "ask: run calls of these tools without asking (exposed names, * for any run of characters; repeatable)")
	fs.Var((*patternFlag)(&a.trust), "trust-annotations", "ask and web: believe these servers' tool annotations, so that their tools marked read-only run without asking (server names, * for all; repeatable)")
	fs.Var((*patternFlag)(&a.tools), "tools", "ask: offer the model only these tools (as --allow; repeatable)")
	fs.StringVar(&a.cont, "continue", "", "ask: go on with the conversation in FILE, and save it there")
	fs.BoolVar(&a.noStream, "no-stream", false, "ask: ask the provider for whole answers, not streams")
	fs.StringVar(&a.toolSearch, "tool-search", "auto", "ask: give the model a search_tools tool instead of every definition: auto (once they pass 10 % of its context), on or off")
	fs.StringVar(&a.tokenField, "max-tokens-field", "", "openai models: max_completion_tokens (default) or max_tokens")
}

// trustsAnnotations reports whether --trust-annotations names server:
// the specification has a client treat a server's annotations as
// untrusted unless the server is trusted, and that is the user's call.
// Nil when it names none.
func (a *askConfig) trustsAnnotations() func(server string) bool {
	if len(a.trust) == 0 {
		return nil
	}
	return func(server string) bool {
		return slices.Contains(a.trust, "*") || slices.Contains(a.trust, server)
	}
}

// patternFlag collects tool-name patterns, repeated or comma-separated.
type patternFlag []string

func (p *patternFlag) String() string { return strings.Join(*p, ",") }

func (p *patternFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*p = append(*p, s)
		}
	}
	if len(*p) == 0 {
		return fmt.Errorf("want a tool name or pattern")
	}
	return nil
}
