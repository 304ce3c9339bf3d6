package mcpclient

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// The "bench" raw server answers the benchmarks' requests as fast as a
// line loop can: every large answer is built once, before the first
// request.

const (
	benchTools    = 5000    // tools/list serves this many tools
	benchPageSize = 100     // in pages of this many
	benchBigText  = 1 << 20 // the text of tool "big", in bytes
)

// benchBigResult is the result of tool "big": one text item of exactly
// benchBigText bytes, in lines like a log or a file listing would have.
func benchBigResult() []byte {
	var text strings.Builder
	for i := 0; text.Len() < benchBigText; i++ {
		fmt.Fprintf(&text, "line %06d: the quick brown fox jumps over the lazy dog\n", i)
	}
	quoted, _ := json.Marshal(text.String()[:benchBigText])
	return []byte(`{"content":[{"type":"text","text":` + string(quoted) + `}]}`)
}

// benchPages returns the tools/list results by cursor: "" for the first
// page, then "page-1", "page-2", ….
func benchPages() map[string][]byte {
	pages := make(map[string][]byte)
	for p := 0; p*benchPageSize < benchTools; p++ {
		var b strings.Builder
		b.WriteString(`{"tools":[`)
		for i := p * benchPageSize; i < (p+1)*benchPageSize && i < benchTools; i++ {
			if i > p*benchPageSize {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name":"tool-%04d","description":"Tool %d of the benchmark catalogue: echoes its input.",`+
				`"inputSchema":{"type":"object","properties":{"text":{"type":"string","description":"what to echo"}},"required":["text"]}}`, i, i)
		}
		b.WriteString(`]`)
		if (p+1)*benchPageSize < benchTools {
			fmt.Fprintf(&b, `,"nextCursor":"page-%d"`, p+1)
		}
		b.WriteString(`}`)
		cursor := ""
		if p > 0 {
			cursor = fmt.Sprintf("page-%d", p)
		}
		pages[cursor] = []byte(b.String())
	}
	return pages
}

// benchServer is the "bench" mode of rawServer.
func benchServer() int {
	big, pages := benchBigResult(), benchPages()
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	reply := func(id json.RawMessage, member string, body []byte) {
		out.WriteString(`{"jsonrpc":"2.0","id":`)
		out.Write(id)
		out.WriteString(`,"` + member + `":`)
		out.Write(body)
		out.WriteString("}\n")
		out.Flush()
	}
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
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
		case req.Method == "initialize":
			reply(req.ID, "result", []byte(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw-bench","version":"0"}}`))
		case req.Method == "tools/call" && req.Params.Name == "echo":
			text, _ := json.Marshal(req.Params.Arguments.Text)
			reply(req.ID, "result", []byte(`{"content":[{"type":"text","text":`+string(text)+`}]}`))
		case req.Method == "tools/call" && req.Params.Name == "big":
			reply(req.ID, "result", big)
		case req.Method == "tools/list" && pages[req.Params.Cursor] != nil:
			reply(req.ID, "result", pages[req.Params.Cursor])
		default:
			reply(req.ID, "error", []byte(`{"code":-32602,"message":"the bench server cannot answer that"}`))
		}
	}
}
