package bridge

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// maxStreamedBlocks bounds the content blocks of one streamed message: a
// block's index sizes a slice.
const maxStreamedBlocks = 256

// anEvent is one event of a streamed Messages answer.
type anEvent struct {
	Type    string `json:"type"`
	Message *struct {
		Model string `json:"model"`
	} `json:"message"`
	Index        int      `json:"index"`
	ContentBlock *anBlock `json:"content_block"`
	Delta        struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// decodeAnthropicStream reads a streamed Messages answer (message_start,
// content blocks with their deltas, message_delta, message_stop), handing
// each piece of text to onText, and returns the whole answer as
// DecodeAnthropic would. A stream that ends before message_stop, or
// carries an error event, is an error.
func decodeAnthropicStream(body io.Reader, onText func(string)) (*mcpclient.CreateMessageResult, error) {
	msg := anResponse{Type: "message"}
	var inputs []strings.Builder // the partial JSON of each tool_use block
	block := func(i int) (*anBlock, error) {
		if i < 0 || i >= len(msg.Content) {
			return nil, fmt.Errorf("content block %d was not started", i)
		}
		return &msg.Content[i], nil
	}
	stopped := false
	err := readSSE(body, func(_, data string) error {
		var ev anEvent
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return fmt.Errorf("event: %w", err)
		}
		switch ev.Type {
		case "message_start":
			if ev.Message != nil {
				msg.Model = ev.Message.Model
			}
		case "content_block_start":
			if ev.ContentBlock == nil || ev.Index != len(msg.Content) || ev.Index >= maxStreamedBlocks {
				return fmt.Errorf("content block %d started out of order", ev.Index)
			}
			b := *ev.ContentBlock
			if b.Type == "text" && b.Text == nil {
				b.Text = new(string)
			}
			msg.Content = append(msg.Content, b)
			inputs = append(inputs, strings.Builder{})
		case "content_block_delta":
			b, err := block(ev.Index)
			if err != nil {
				return err
			}
			switch ev.Delta.Type {
			case "text_delta":
				if b.Text == nil {
					return fmt.Errorf("text for content block %d of type %q", ev.Index, b.Type)
				}
				*b.Text += ev.Delta.Text
				if ev.Delta.Text != "" {
					onText(ev.Delta.Text)
				}
			case "input_json_delta":
				inputs[ev.Index].WriteString(ev.Delta.PartialJSON)
			}
		case "content_block_stop":
			b, err := block(ev.Index)
			if err != nil {
				return err
			}
			if b.Type == "tool_use" {
				in := strings.TrimSpace(inputs[ev.Index].String())
				if in == "" {
					in = "{}"
				}
				b.Input = json.RawMessage(in)
			}
		case "message_delta":
			if ev.Delta.StopReason != "" {
				msg.StopReason = ev.Delta.StopReason
			}
		case "message_stop":
			stopped = true
			return errStreamDone
		case "error":
			if ev.Error != nil {
				return fmt.Errorf("the provider failed mid-stream: %s: %s", ev.Error.Type, ev.Error.Message)
			}
			return fmt.Errorf("the provider failed mid-stream")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !stopped {
		return nil, fmt.Errorf("the stream ended before the answer did")
	}
	return anthropicMessage(&msg)
}
