package bridge

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// maxStreamedCalls bounds the tool calls one streamed answer may hold: a
// call's index in a chunk sizes a slice.
const maxStreamedCalls = 128

// oaChunk is one streamed piece of a Chat Completions answer.
type oaChunk struct {
	Model   string         `json:"model"`
	Choices oaChunkChoices `json:"choices"`
	Error   *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// oaChunkChoice is one choice's piece of a chunk.
type oaChunkChoice struct {
	Index int `json:"index"`
	Delta struct {
		Content   *string      `json:"content"`
		Refusal   *string      `json:"refusal"`
		ToolCalls oaCallDeltas `json:"tool_calls"`
	} `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

// oaCallDelta is a piece of one tool call of a chunk.
type oaCallDelta struct {
	Index    int    `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// decodeOpenAIStream reads a streamed Chat Completions answer (data:
// chunks, then data: [DONE]), handing each piece of text to onText, and
// returns the whole answer as decodeOpenAI would. A stream that ends
// before a finish reason or [DONE], or carries an error, is an error.
func decodeOpenAIStream(body io.Reader, onText func(string)) (*mcpclient.CreateMessageResult, error) {
	a := &oaAssembler{onText: onText}
	if err := readSSE(body, a.event); err != nil {
		return nil, err
	}
	if !a.done && a.finish == "" {
		return nil, fmt.Errorf("the stream ended before the answer did")
	}
	var choice oaChoice
	choice.FinishReason = a.finish
	if a.text.Len() > 0 {
		t := a.text.String()
		choice.Message.Content = &t
	}
	if a.refusal.Len() > 0 {
		t := a.refusal.String()
		choice.Message.Refusal = &t
	}
	for i := range a.calls {
		a.calls[i].Function.Name, a.calls[i].Function.Arguments = a.names[i].String(), a.args[i].String()
	}
	choice.Message.ToolCalls = a.calls
	return openAIResult(&oaResponse{Model: a.model, Choices: []oaChoice{choice}})
}

// oaAssembler puts a streamed answer together, chunk by chunk. Text,
// and each call's name and arguments, grow in builders: joining strings
// delta by delta would copy the whole so far each time (quadratic in the
// length). The body's limit (maxResponseBytes) bounds what they hold.
type oaAssembler struct {
	model, finish string
	text, refusal strings.Builder
	calls         []oaToolCall
	names, args   []*strings.Builder
	done          bool
	onText        func(string)
}

// event takes one event's data: a chunk, or [DONE].
func (a *oaAssembler) event(_, data string) error {
	if strings.TrimSpace(data) == "[DONE]" {
		a.done = true
		return errStreamDone
	}
	var ch oaChunk
	if err := json.Unmarshal([]byte(data), &ch); err != nil {
		return fmt.Errorf("chunk: %w", err)
	}
	if ch.Error != nil {
		return &streamFailure{msg: ch.Error.Message}
	}
	if ch.Model != "" {
		a.model = ch.Model
	}
	for i := range ch.Choices {
		if ch.Choices[i].Index == 0 {
			if err := a.choice(&ch.Choices[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// choice takes the first choice's piece of a chunk.
func (a *oaAssembler) choice(c *oaChunkChoice) error {
	if t := c.Delta.Content; t != nil && *t != "" {
		a.text.WriteString(*t)
		if a.onText != nil {
			a.onText(*t)
		}
	}
	if t := c.Delta.Refusal; t != nil {
		a.refusal.WriteString(*t)
	}
	for _, tc := range c.Delta.ToolCalls {
		if tc.Index < 0 || tc.Index >= maxStreamedCalls {
			return fmt.Errorf("tool call index %d out of range", tc.Index)
		}
		for len(a.calls) <= tc.Index {
			a.calls = append(a.calls, oaToolCall{Type: "function"})
			a.names, a.args = append(a.names, new(strings.Builder)), append(a.args, new(strings.Builder))
		}
		if tc.ID != "" {
			a.calls[tc.Index].ID = tc.ID
		}
		a.names[tc.Index].WriteString(tc.Function.Name)
		a.args[tc.Index].WriteString(tc.Function.Arguments)
	}
	if c.FinishReason != nil && *c.FinishReason != "" {
		a.finish = *c.FinishReason
	}
	return nil
}

// streamWhole hands onText the text of an answer that came whole.
func streamWhole(res *mcpclient.CreateMessageResult, onText func(string)) {
	for _, c := range res.Content {
		if c.Type == "text" && c.Text != "" {
			onText(c.Text)
		}
	}
}
