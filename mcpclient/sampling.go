package mcpclient

import "encoding/json"

// CreateMessageParams is a server's request for a model completion
// (sampling/createMessage).
type CreateMessageParams struct {
	Messages         []SamplingMessage `json:"messages"`
	ModelPreferences *ModelPreferences `json:"modelPreferences,omitempty"`
	SystemPrompt     string            `json:"systemPrompt,omitempty"`
	IncludeContext   string            `json:"includeContext,omitempty"`
	Temperature      *float64          `json:"temperature,omitempty"`
	MaxTokens        int               `json:"maxTokens"`
	StopSequences    []string          `json:"stopSequences,omitempty"`
	Metadata         json.RawMessage   `json:"metadata,omitempty"`
	Tools            []*Tool           `json:"tools,omitempty"`
	ToolChoice       *ToolChoice       `json:"toolChoice,omitempty"`
	Meta             json.RawMessage   `json:"_meta,omitempty"`
}

// SamplingMessage is one turn of the conversation a server wants completed.
type SamplingMessage struct {
	Role    string          `json:"role"`
	Content ContentList     `json:"content"`
	Meta    json.RawMessage `json:"_meta,omitempty"`
}

// ModelPreferences are the server's hints for choosing a model; the host
// decides.
type ModelPreferences struct {
	Hints                []ModelHint `json:"hints,omitempty"`
	CostPriority         *float64    `json:"costPriority,omitempty"`
	SpeedPriority        *float64    `json:"speedPriority,omitempty"`
	IntelligencePriority *float64    `json:"intelligencePriority,omitempty"`
}

// ModelHint suggests a model by (part of) its name.
type ModelHint struct {
	Name string `json:"name,omitempty"`
}

// ToolChoice controls tool use in a sampling request: "auto", "required" or
// "none".
type ToolChoice struct {
	Mode string `json:"mode,omitempty"`
}

// CreateMessageResult is the host model's answer to a sampling request.
type CreateMessageResult struct {
	Role       string          `json:"role"`
	Content    ContentList     `json:"content"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// ElicitParams is a server's request for user input (elicitation/create).
// In form mode (Mode "form" or empty) RequestedSchema describes the fields
// to ask for, kept byte-for-byte; in URL mode the user is sent to URL.
type ElicitParams struct {
	Mode            string          `json:"mode,omitempty"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
	ElicitationID   string          `json:"elicitationId,omitempty"`
	URL             string          `json:"url,omitempty"`
	Meta            json.RawMessage `json:"_meta,omitempty"`
}

// ElicitResult is what the user did: Action is "accept", "decline" or
// "cancel"; Content holds the submitted form fields on accept.
type ElicitResult struct {
	Action  string          `json:"action"`
	Content map[string]any  `json:"content,omitempty"`
	Meta    json.RawMessage `json:"_meta,omitempty"`
}
