package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// streamSize is how much text or argument JSON the streaming benchmarks
// deliver, in deltas of deltaSize bytes: a long answer, and a tool call
// whose arguments (a file to write, say) are as long.
const (
	streamSize = 4 << 20
	deltaSize  = 1 << 10
)

// deltaStream writes a server-sent event stream of streamSize bytes of
// content in deltas of deltaSize, each event made by event from the
// delta's JSON-encoded string, then the closing events.
func deltaStream(event func(delta []byte) string, closing string) []byte {
	var b bytes.Buffer
	piece, _ := json.Marshal(strings.Repeat("x", deltaSize))
	for n := 0; n < streamSize; n += deltaSize {
		fmt.Fprintf(&b, "data: %s\n\n", event(piece))
	}
	b.WriteString(closing)
	return b.Bytes()
}

func benchStream(b *testing.B, body []byte, decode func([]byte) error) {
	b.ReportAllocs()
	b.SetBytes(streamSize)
	b.ResetTimer()
	for range b.N {
		if err := decode(body); err != nil {
			b.Fatal(err)
		}
	}
}

// 4 MiB of Anthropic text deltas, assembled into one answer.
func BenchmarkAnthropicStreamText(b *testing.B) {
	body := deltaStream(func(d []byte) string {
		return `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":` + string(d) + `}}`
	}, "data: {\"type\":\"content_block_stop\",\"index\":0}\n\ndata: {\"type\":\"message_stop\"}\n\n")
	body = append([]byte("data: {\"type\":\"message_start\",\"message\":{\"model\":\"m\"}}\n\n"+
		"data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"), body...)
	benchStream(b, body, func(data []byte) error {
		res, err := decodeAnthropicStream(bytes.NewReader(data), func(string) {})
		if err == nil && len(res.Content[0].Text) != streamSize {
			err = fmt.Errorf("got %d bytes of text", len(res.Content[0].Text))
		}
		return err
	})
}

// 4 MiB of OpenAI tool-call argument deltas, assembled into one call.
func BenchmarkOpenAIStreamArguments(b *testing.B) {
	// The arguments are {"s":"xxx…"}: the deltas carry the string's inside.
	open, _ := json.Marshal(`{"s":"`)
	closeArgs, _ := json.Marshal(`"}`)
	chunk := func(args string) string {
		return `{"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":` + args + `}}]}}]}`
	}
	body := deltaStream(func(d []byte) string { return chunk(string(d)) },
		"data: "+chunk(string(closeArgs))+"\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n")
	body = append([]byte("data: {\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"write\",\"arguments\":"+string(open)+"}}]}}]}\n\n"), body...)
	benchStream(b, body, func(data []byte) error {
		res, err := decodeOpenAIStream(bytes.NewReader(data), func(string) {})
		if err == nil && len(res.Content[0].Input) != streamSize+8 {
			err = fmt.Errorf("got %d bytes of arguments", len(res.Content[0].Input))
		}
		return err
	})
}

// 4 MiB of OpenAI text deltas: the path that was linear all along.
func BenchmarkOpenAIStreamText(b *testing.B) {
	body := deltaStream(func(d []byte) string {
		return `{"model":"m","choices":[{"index":0,"delta":{"content":` + string(d) + `}}]}`
	}, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	benchStream(b, body, func(data []byte) error {
		res, err := decodeOpenAIStream(bytes.NewReader(data), func(string) {})
		if err == nil && len(res.Content[0].Text) != streamSize {
			err = fmt.Errorf("got %d bytes of text", len(res.Content[0].Text))
		}
		return err
	})
}

// Deltas of several tool calls, or content blocks, interleaved: each
// grows its own, whatever the order (a builder copied as its slice grew
// would panic on its next write).
func TestStreamInterleavedDeltas(t *testing.T) {
	var oa strings.Builder
	for round := range 3 {
		for i := range 5 {
			piece := fmt.Sprintf(`{\"k\":%d`, i)
			if round > 0 {
				piece = fmt.Sprintf(`,\"r%d\":%d`, round, round)
			}
			if round == 2 {
				piece += "}"
			}
			fmt.Fprintf(&oa, "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":%d,\"id\":\"c%d\",\"function\":{\"name\":\"t\",\"arguments\":\"%s\"}}]}}]}\n\n", i, i, piece)
		}
	}
	oa.WriteString("data: [DONE]\n\n")
	res, err := decodeOpenAIStream(strings.NewReader(oa.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range res.Content {
		want := fmt.Sprintf(`{"k":%d,"r1":1,"r2":2}`, i)
		if string(c.Input) != want || c.Name != "ttt" {
			t.Errorf("call %d: got %s %s, want t× 3 %s", i, c.Name, c.Input, want)
		}
	}
	var an strings.Builder
	an.WriteString("data: {\"type\":\"message_start\",\"message\":{\"model\":\"m\"}}\n\n")
	for i := range 4 {
		fmt.Fprintf(&an, "data: {\"type\":\"content_block_start\",\"index\":%d,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n", i)
	}
	for round := range 3 {
		for i := range 4 {
			fmt.Fprintf(&an, "data: {\"type\":\"content_block_delta\",\"index\":%d,\"delta\":{\"type\":\"text_delta\",\"text\":\"%d%d\"}}\n\n", i, i, round)
		}
	}
	an.WriteString("data: {\"type\":\"message_stop\"}\n\n")
	msg, err := decodeAnthropicStream(strings.NewReader(an.String()), func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range msg.Content {
		if want := fmt.Sprintf("%d0%d1%d2", i, i, i); c.Text != want {
			t.Errorf("block %d: got %q, want %q", i, c.Text, want)
		}
	}
}
