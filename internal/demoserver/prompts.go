package demoserver

import (
	"context"
	"encoding/json"
	"strings"
)

type promptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

type promptDef struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []promptArgument `json:"arguments,omitempty"`
}

type promptMessage struct {
	Role    string      `json:"role"`
	Content textContent `json:"content"`
}

type promptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []promptMessage `json:"messages"`
}

// prompt is one prompt the server offers and the function that fills it
// in. render gets the arguments after the required ones were checked.
type prompt struct {
	def    promptDef
	render func(args map[string]string) []promptMessage
}

// prompts are listed in this order.
var prompts = []*prompt{
	{
		def: promptDef{
			Name: "greeting", Title: "Greeting", Description: "Asks the model to greet someone.",
			Arguments: []promptArgument{{Name: "name", Description: "Who to greet.", Required: true}},
		},
		render: func(args map[string]string) []promptMessage {
			return []promptMessage{{Role: "user", Content: text("Say hello to " + args["name"])}}
		},
	},
	{
		def: promptDef{
			Name: "code-review", Title: "Code review", Description: "Asks the model to review a piece of code.",
			Arguments: []promptArgument{
				{Name: "code", Description: "The code to review.", Required: true},
				{Name: "language", Description: "The programming language of the code, such as go."},
			},
		},
		render: func(args map[string]string) []promptMessage {
			lang := args["language"]
			ask := "Please review this code:"
			if lang != "" {
				ask = "Please review this " + lang + " code:"
			}
			return []promptMessage{
				{Role: "user", Content: text(ask + "\n\n```" + lang + "\n" + args["code"] + "\n```")},
				{Role: "assistant", Content: text("I will review it for correctness, clarity and style.")},
			}
		},
	},
}

// promptItems are the prompts as prompts/list shows them, encoded once.
var promptItems = func() []json.RawMessage {
	items := make([]json.RawMessage, len(prompts))
	for i, p := range prompts {
		items[i] = mustJSON(p.def)
	}
	return items
}()

func findPrompt(name string) *prompt {
	for _, p := range prompts {
		if p.def.Name == name {
			return p
		}
	}
	return nil
}

func (ss *session) listPrompts(ctx context.Context, params json.RawMessage) (any, error) {
	return ss.listPage("prompts/list", "prompts", params, promptItems)
}

// listPage answers a list request over a fixed list of encoded items.
func (ss *session) listPage(method, key string, params json.RawMessage, items []json.RawMessage) (any, error) {
	var p pageParams
	if err := decodeParams(method, params, &p); err != nil {
		return nil, err
	}
	start, end, next, err := page(method, p.Cursor, len(items), ss.srv.pageSize)
	if err != nil {
		return nil, err
	}
	return appendPage(key, items[start:end], next), nil
}

func (ss *session) getPrompt(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments"`
	}
	if err := decodeParams("prompts/get", params, &p); err != nil {
		return nil, err
	}
	pr := findPrompt(p.Name)
	if pr == nil {
		return nil, invalidParams("prompts/get: unknown prompt %q", p.Name)
	}
	for _, a := range pr.def.Arguments {
		if a.Required && p.Arguments[a.Name] == "" {
			return nil, invalidParams("prompts/get: prompt %q: missing required argument %q", p.Name, a.Name)
		}
	}
	return &promptResult{Description: pr.def.Description, Messages: pr.render(p.Arguments)}, nil
}

// Completion values, by what they complete.
var (
	completeNames     = []string{"Ada", "Alan", "Barbara", "Grace", "Linus"}
	completeLanguages = []string{"go", "python", "rust", "typescript"}
)

type completion struct {
	Values  []string `json:"values"`
	Total   int      `json:"total"`
	HasMore bool     `json:"hasMore"`
}

// complete answers completion/complete for the prompts' arguments and the
// greetings template's {name}. Values match the typed prefix, ignoring case.
func (ss *session) complete(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Ref struct {
			Type string `json:"type"`
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"ref"`
		Argument struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"argument"`
	}
	if err := decodeParams("completion/complete", params, &p); err != nil {
		return nil, err
	}
	candidates, err := completionCandidates(p.Ref.Type, p.Ref.Name, p.Ref.URI, p.Argument.Name)
	if err != nil {
		return nil, err
	}
	values := []string{}
	prefix := strings.ToLower(p.Argument.Value)
	for _, c := range candidates {
		if strings.HasPrefix(strings.ToLower(c), prefix) {
			values = append(values, c)
		}
	}
	return map[string]completion{"completion": {Values: values, Total: len(values)}}, nil
}

// completionCandidates returns what may complete argument arg of the
// prompt or resource template a reference names (none for an argument
// with nothing to suggest), or why the reference is invalid.
func completionCandidates(refType, name, uri, arg string) ([]string, error) {
	switch refType {
	case "ref/prompt":
		switch {
		case findPrompt(name) == nil:
			return nil, invalidParams("completion/complete: unknown prompt %q", name)
		case name == "greeting" && arg == "name":
			return completeNames, nil
		case name == "code-review" && arg == "language":
			return completeLanguages, nil
		}
		return nil, nil
	case "ref/resource":
		if uri != greetingTemplate {
			return nil, invalidParams("completion/complete: unknown resource template %q", uri)
		}
		if arg == "name" {
			return completeNames, nil
		}
		return nil, nil
	}
	return nil, invalidParams("completion/complete: unknown reference type %q", refType)
}
