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
	Index        int           `json:"index"`
	ContentBlock *anReplyBlock `json:"content_block"`
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
// decodeAnthropic would. A stream that ends before message_stop, or
// carries an error event, is an error.
func decodeAnthropicStream(body io.Reader, onText func(string)) (*mcpclient.CreateMessageResult, error) {
	a := &anAssembler{msg: anResponse{Type: "message"}, onText: onText}
	if err := readSSE(body, a.event); err != nil {
		return nil, err
	}
	if !a.stopped {
		return nil, fmt.Errorf("the stream ended before the answer did")
	}
	for i := range a.msg.Content {
		b := &a.msg.Content[i]
		switch {
		case b.Type == "tool_use":
			in := strings.TrimSpace(a.parts[i].String())
			if in == "" {
				in = "{}"
			}
			b.Input = json.RawMessage(in)
		case b.Text != nil:
			t := a.parts[i].String()
			b.Text = &t
		}
	}
	return anthropicMessage(&a.msg)
}

// anAssembler puts a streamed message together, event by event.
type anAssembler struct {
	msg anResponse
	// Each block's text, or a tool_use block's partial JSON, grows in a
	// builder of its own: joining strings delta by delta would copy the
	// whole so far each time (quadratic in the answer's length). The
	// body's own limit (maxResponseBytes) bounds what they hold.
	parts   []*strings.Builder
	stopped bool
	onText  func(string)
}

// block is the started content block i.
func (a *anAssembler) block(i int) (*anReplyBlock, error) {
	if i < 0 || i >= len(a.msg.Content) {
		return nil, fmt.Errorf("content block %d was not started", i)
	}
	return &a.msg.Content[i], nil
}

// event takes one event's data.
func (a *anAssembler) event(_, data string) error {
	var ev anEvent
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		return fmt.Errorf("event: %w", err)
	}
	switch ev.Type {
	case "message_start":
		if ev.Message != nil {
			a.msg.Model = ev.Message.Model
		}
	case "content_block_start":
		return a.start(&ev)
	case "content_block_delta":
		return a.delta(&ev)
	case "content_block_stop":
		_, err := a.block(ev.Index)
		return err
	case "message_delta":
		if ev.Delta.StopReason != "" {
			a.msg.StopReason = ev.Delta.StopReason
		}
	case "message_stop":
		a.stopped = true
		return errStreamDone
	case "error":
		if ev.Error != nil {
			return &streamFailure{msg: ev.Error.Type + ": " + ev.Error.Message}
		}
		return &streamFailure{}
	}
	return nil
}

// start opens the next content block.
func (a *anAssembler) start(ev *anEvent) error {
	if ev.ContentBlock == nil || ev.Index != len(a.msg.Content) || ev.Index >= maxStreamedBlocks {
		return fmt.Errorf("content block %d started out of order", ev.Index)
	}
	b := *ev.ContentBlock
	if b.Type == "text" && b.Text == nil {
		b.Text = new(string)
	}
	a.msg.Content = append(a.msg.Content, b)
	a.parts = append(a.parts, new(strings.Builder))
	if b.Text != nil {
		a.parts[ev.Index].WriteString(*b.Text)
	}
	return nil
}

// delta adds a piece of text, or of a tool's input, to its block.
func (a *anAssembler) delta(ev *anEvent) error {
	b, err := a.block(ev.Index)
	if err != nil {
		return err
	}
	switch ev.Delta.Type {
	case "text_delta":
		if b.Text == nil {
			return fmt.Errorf("text for content block %d of type %q", ev.Index, b.Type)
		}
		a.parts[ev.Index].WriteString(ev.Delta.Text)
		if ev.Delta.Text != "" {
			a.onText(ev.Delta.Text)
		}
	case "input_json_delta":
		if b.Type != "tool_use" {
			return fmt.Errorf("input JSON for content block %d of type %q", ev.Index, b.Type)
		}
		a.parts[ev.Index].WriteString(ev.Delta.PartialJSON)
	}
	return nil
}
