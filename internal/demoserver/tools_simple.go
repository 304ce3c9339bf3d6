package demoserver

import (
	"context"
	"strconv"
)

// The tools in this file compute their result from their arguments alone.

func echoTool(ctx context.Context, c *call) (*toolResult, error) {
	var a struct {
		Text *string `json:"text"`
	}
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	if a.Text == nil {
		return nil, c.missing("text")
	}
	return textResult("%s", *a.Text), nil
}

func addTool(ctx context.Context, c *call) (*toolResult, error) {
	var a struct {
		A *float64 `json:"a"`
		B *float64 `json:"b"`
	}
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	switch {
	case a.A == nil:
		return nil, c.missing("a")
	case a.B == nil:
		return nil, c.missing("b")
	}
	sum := *a.A + *a.B
	return &toolResult{
		Content:           []any{text(strconv.FormatFloat(sum, 'g', -1, 64))},
		StructuredContent: map[string]float64{"sum": sum},
	}, nil
}

func mixedTool(ctx context.Context, c *call) (*toolResult, error) {
	content := []any{
		text("One content block of each kind follows."),
		mediaContent{Type: "image", Data: pixelPNG, MimeType: "image/png"},
		mediaContent{Type: "audio", Data: silenceWAV, MimeType: "audio/wav"},
		resourceLink{Type: "resource_link", URI: readmeURI, Name: "readme", Description: "The demo server's README.", MimeType: "text/markdown"},
		embeddedResource{Type: "resource", Resource: textContents{URI: numbersURI, MimeType: "application/json", Text: numbersJSON}},
	}
	return &toolResult{Content: content, StructuredContent: map[string]int{"items": len(content)}}, nil
}

func failTool(ctx context.Context, c *call) (*toolResult, error) {
	return errorResult("the fail tool always fails: this is a tool error, returned as a result with isError set"), nil
}

// maxBig bounds the big tool's result.
const maxBig = 64 << 20

// bigPattern is what the big tool's text is made of, repeated and cut to
// size, so a reader can spot a corrupted or shifted byte.
const bigPattern = "abcdefghijklmnopqrstuvwxyz"

func bigTool(ctx context.Context, c *call) (*toolResult, error) {
	var a struct {
		Bytes *int `json:"bytes"`
	}
	if err := c.decode(&a); err != nil {
		return nil, err
	}
	switch {
	case a.Bytes == nil:
		return nil, c.missing("bytes")
	case *a.Bytes < 0 || *a.Bytes > maxBig:
		return nil, invalidParams("tool %q: argument %q must be between 0 and %d", c.name, "bytes", maxBig)
	}
	// The pattern needs no escaping, so the result is written out by hand:
	// encoding/json would scan every byte of it.
	const head, tail = `{"content":[{"type":"text","text":"`, `"}]}`
	n := *a.Bytes
	b := make([]byte, len(head)+n, len(head)+n+len(tail))
	copy(b, head)
	body := b[len(head):]
	// Copy the pattern, then double what is there: the text stays the
	// pattern repeated, since every copy but the last is a whole number of
	// patterns long.
	for i := copy(body, bigPattern); i < n; {
		i += copy(body[i:], body[:i])
	}
	return &toolResult{encoded: append(b, tail...)}, nil
}
