package mcpclient

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The "bench" raw server answers the benchmarks' requests as fast as a
// line loop can: every large answer is built once, before the first
// request.

const (
	benchTools    = 5000    // tools/list serves this many tools
	benchPageSize = 100     // in pages of this many
	benchBigText  = 1 << 20 // the text of tool "big", in bytes
)

// benchLines returns exactly benchBigText bytes of text in lines like a
// log or a file listing would have: the text of tool "big"'s result and of
// the arguments the args1MiB benchmark sends to tool "len". Each line is
// "line 000042: the quick brown fox jumps over the lazy dog\n", a template
// with its number written in: every bench server builds the text as it
// starts, and under -race fmt took a sixth of a second for it.
func benchLines() string {
	line := []byte("line 000000: the quick brown fox jumps over the lazy dog\n")
	text := make([]byte, 0, benchBigText+len(line))
	for i := 0; len(text) < benchBigText; i++ { // fewer than a million lines
		for d, n := 10, i; n > 0; d, n = d-1, n/10 {
			line[d] = byte('0' + n%10)
		}
		text = append(text, line...)
	}
	return string(text[:benchBigText])
}

// benchBigResult is the result of tool "big": one text item of exactly
// benchBigText bytes. The text is printable ASCII but for its newlines,
// none of it a character json.Marshal escapes (", \, <, >, &), so quoting
// it is escaping the newlines: json.Marshal took a fifth of a second under
// -race at every bench server's start. TestBenchBigResultIsTheText holds
// the two to the same result.
func benchBigResult() []byte {
	quoted := `"` + strings.ReplaceAll(benchLines(), "\n", `\n`) + `"`
	return []byte(`{"content":[{"type":"text","text":` + quoted + `}]}`)
}

// Tool "big"'s result, quoted by hand, decodes to benchLines' text, whose
// lines read as fmt would print them.
func TestBenchBigResultIsTheText(t *testing.T) {
	var res struct {
		Content []struct{ Type, Text string }
	}
	if err := json.Unmarshal(benchBigResult(), &res); err != nil {
		t.Fatal(err)
	}
	text := benchLines()
	if len(res.Content) != 1 || res.Content[0].Type != "text" || res.Content[0].Text != text {
		t.Fatalf("tool big's result does not decode to the %d bytes of benchLines", len(text))
	}
	lines := strings.Split(text, "\n")
	for _, i := range []int{0, 7, 42, 1000, len(lines) - 2} {
		if want := fmt.Sprintf("line %06d: the quick brown fox jumps over the lazy dog", i); lines[i] != want {
			t.Errorf("line %d: got %q, want %q", i, lines[i], want)
		}
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(fmt.Sprintf("line %06d: the quick", len(lines)-1), last) {
		t.Errorf("the last line, cut at benchBigText: %q", last)
	}
}

// benchPages returns the tools/list results by cursor: "" for the first
// page, then "page-1", "page-2", ….
func benchPages() map[string][]byte {
	pages := make(map[string][]byte)
	for p := 0; p*benchPageSize < benchTools; p++ {
		b := []byte(`{"tools":[`)
		for i := p * benchPageSize; i < (p+1)*benchPageSize && i < benchTools; i++ {
			if i > p*benchPageSize {
				b = append(b, ',')
			}
			b = append(b, benchTool(i)...)
		}
		b = append(b, `]`...)
		if (p+1)*benchPageSize < benchTools {
			b = fmt.Appendf(b, `,"nextCursor":"page-%d"`, p+1)
		}
		b = append(b, `}`...)
		cursor := ""
		if p > 0 {
			cursor = fmt.Sprintf("page-%d", p)
		}
		pages[cursor] = b
	}
	return pages
}

// benchTool is the listing of tool number i (i < 10000):
//
//	{"name":"tool-0042","description":"Tool 42 of the benchmark catalogue: echoes its input.","inputSchema":…}
//
// put together without fmt, which took a twentieth of a second under
// -race for the catalogue at every bench server's start.
func benchTool(i int) []byte {
	n := strconv.Itoa(i)
	b := make([]byte, 0, 256)
	b = append(b, `{"name":"tool-`...)
	b = append(b, "0000"[len(n):]...)
	b = append(b, n...)
	b = append(b, `","description":"Tool `...)
	b = append(b, n...)
	b = append(b, ` of the benchmark catalogue: echoes its input.",`+
		`"inputSchema":{"type":"object","properties":{"text":{"type":"string","description":"what to echo"}},"required":["text"]}}`...)
	return b
}

// benchMetaKey is the _meta key every stateless-era request carries.
const benchMetaKey = `"io.modelcontextprotocol/protocolVersion"`

// completed marks a result object as a final one, the way a stateless-era
// server does: {"resultType":"complete",…}.
func completed(result []byte) []byte {
	return append([]byte(`{"resultType":"complete",`), result[1:]...)
}

// benchServer is the "bench" (stateless false) and "bench-stateless" modes
// of rawServer: the same tools in either era of the protocol.
//
// In the handshake era it answers initialize and refuses server/discover
// as a server from before 2026-07-28 would (method not found), so that a
// client detecting the era falls back to the handshake. In the stateless
// era it answers server/discover, refuses every request whose line does
// not carry the protocol version in its _meta — a benchmark that passes
// has really sent the metadata each time — and marks each result
// complete. It gives no cache hints: every listing is a real one.
//
// Tools: "echo" returns its text argument, "big" returns benchBigText
// bytes of text, "len" returns the length in bytes of its text argument.
//
// Answers go out in request order. The loop flushes them once it has no
// whole request left to read, so a burst of requests in flight is answered
// in a few writes rather than one per response. It never waits for input
// with answers unflushed unless a request line has begun but not ended, and
// a client finishes writing a line without waiting for an answer. Nor can
// it deadlock on output: it blocks writing only while its stdout pipe is
// full, and a client reads its responses as they come (it has to, to see
// any of them); the clients here all read on a goroutine of their own.
func benchServer(stateless bool) int {
	big, pages := benchBigResult(), benchPages()
	discover := []byte(`{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"raw-bench","version":"0"}}`)
	if stateless {
		big, discover = completed(big), completed(discover)
		for cursor, p := range pages {
			pages[cursor] = completed(p)
		}
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	reply := func(id json.RawMessage, member string, body []byte) {
		out.WriteString(`{"jsonrpc":"2.0","id":`)
		out.Write(id)
		out.WriteString(`,"` + member + `":`)
		out.Write(body)
		out.WriteString("}\n")
	}
	text := func(s []byte) []byte {
		r := append([]byte(`{"content":[{"type":"text","text":`), s...)
		r = append(r, "}]}"...)
		if stateless {
			r = completed(r)
		}
		return r
	}
	for {
		if waiting, _ := in.Peek(in.Buffered()); bytes.IndexByte(waiting, '\n') < 0 {
			out.Flush() // no whole request is waiting: answer the ones read
		}
		line, err := in.ReadBytes('\n')
		if err != nil {
			out.Flush()
			return 0
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string `json:"name"`
				Cursor    string `json:"cursor"`
				Arguments struct {
					Text string `json:"text"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &req) != nil || req.ID == nil {
			continue // notifications
		}
		switch {
		case stateless && !bytes.Contains(line, []byte(benchMetaKey)):
			reply(req.ID, "error", []byte(`{"code":-32602,"message":"the request's _meta lacks `+benchMetaKey[1:len(benchMetaKey)-1]+`"}`))
		case req.Method == "initialize" && !stateless:
			reply(req.ID, "result", []byte(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw-bench","version":"0"}}`))
		case req.Method == "server/discover" && stateless:
			reply(req.ID, "result", discover)
		case req.Method == "server/discover":
			reply(req.ID, "error", []byte(`{"code":-32601,"message":"Method not found"}`))
		case req.Method == "tools/call" && req.Params.Name == "echo":
			quoted, _ := json.Marshal(req.Params.Arguments.Text)
			reply(req.ID, "result", text(quoted))
		case req.Method == "tools/call" && req.Params.Name == "len":
			reply(req.ID, "result", text([]byte(`"`+strconv.Itoa(len(req.Params.Arguments.Text))+`"`)))
		case req.Method == "tools/call" && req.Params.Name == "big":
			reply(req.ID, "result", big)
		case req.Method == "tools/list" && pages[req.Params.Cursor] != nil:
			reply(req.ID, "result", pages[req.Params.Cursor])
		default:
			reply(req.ID, "error", []byte(`{"code":-32602,"message":"the bench server cannot answer that"}`))
		}
	}
}
