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
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content   *string `json:"content"`
			Refusal   *string `json:"refusal"`
			ToolCalls []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// decodeOpenAIStream reads a streamed Chat Completions answer (data:
// chunks, then data: [DONE]), handing each piece of text to onText, and
// returns the whole answer as DecodeOpenAI would. A stream that ends
// before a finish reason or [DONE], or carries an error, is an error.
func decodeOpenAIStream(body io.Reader, onText func(string)) (*mcpclient.CreateMessageResult, error) {
	var model, finish string
	var text, refusal strings.Builder
	var calls []oaToolCall
	done := false
	err := readSSE(body, func(_, data string) error {
		if strings.TrimSpace(data) == "[DONE]" {
			done = true
			return errStreamDone
		}
		var ch oaChunk
		if err := json.Unmarshal([]byte(data), &ch); err != nil {
			return fmt.Errorf("chunk: %w", err)
		}
		if ch.Error != nil {
			return fmt.Errorf("the provider failed mid-stream: %s", ch.Error.Message)
		}
		if ch.Model != "" {
			model = ch.Model
		}
		for _, c := range ch.Choices {
			if c.Index != 0 {
				continue
			}
			if t := c.Delta.Content; t != nil && *t != "" {
				text.WriteString(*t)
				if onText != nil {
					onText(*t)
				}
			}
			if t := c.Delta.Refusal; t != nil {
				refusal.WriteString(*t)
			}
			for _, tc := range c.Delta.ToolCalls {
				if tc.Index < 0 || tc.Index >= maxStreamedCalls {
					return fmt.Errorf("tool call index %d out of range", tc.Index)
				}
				for len(calls) <= tc.Index {
					calls = append(calls, oaToolCall{Type: "function"})
				}
				call := &calls[tc.Index]
				if tc.ID != "" {
					call.ID = tc.ID
				}
				call.Function.Name += tc.Function.Name
				call.Function.Arguments += tc.Function.Arguments
			}
			if c.FinishReason != nil && *c.FinishReason != "" {
				finish = *c.FinishReason
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !done && finish == "" {
		return nil, fmt.Errorf("the stream ended before the answer did")
	}
	var choice oaChoice
	choice.FinishReason = finish
	if text.Len() > 0 {
		t := text.String()
		choice.Message.Content = &t
	}
	if refusal.Len() > 0 {
		t := refusal.String()
		choice.Message.Refusal = &t
	}
	choice.Message.ToolCalls = calls
	return openAIResult(&oaResponse{Model: model, Choices: []oaChoice{choice}})
}

// streamWhole hands onText the text of an answer that came whole.
func streamWhole(res *mcpclient.CreateMessageResult, onText func(string)) {
	for _, c := range res.Content {
		if c.Type == "text" && c.Text != "" {
			onText(c.Text)
		}
	}
}
