package streamhttp

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// The bench server answers the benchmarks of bench_test.go and
// bench_table_test.go: initialize, tools/list (in pages of 100) and
// tools/call of two tools, "echo" (its text back) and "big" (1 MiB of
// text), answered as application/json or as text/event-stream (one
// "message" event with the response, flushed, then the end of the
// response, as the SDKs' servers do). It counts the TCP connections it
// accepts, and it checks what each era requires of a request (headers,
// and in the stateless era the protocol version in _meta), so that the
// floor and the transport send the same requests.

const (
	benchHandshake = "2025-06-18"
	benchStateless = "2026-07-28"
	benchSession   = "bench-session-1"
	benchText      = "hello, benchmark"
	benchPage      = 100     // tools per tools/list page
	benchBig       = 1 << 20 // bytes of text in the big tool's result
)

// benchConfig is what a bench server is: how it answers, which era it
// checks for and how many tools it lists.
type benchConfig struct {
	SSE       bool // answer requests with an event stream
	Stateless bool // require the stateless era's headers and _meta
	Tools     int  // tools/list's length; 0 means 2 (echo and big)
}

type benchServer struct {
	srv   *httptest.Server
	cfg   benchConfig
	pages [][]byte // the result of each tools/list page
	big   []byte   // the big tool's result
	conns atomic.Int64
}

// newBenchServer starts a bench server in this process.
func newBenchServer(b testing.TB, sse, stateless bool) *benchServer {
	s := startBenchServer(benchConfig{SSE: sse, Stateless: stateless})
	b.Cleanup(s.srv.Close)
	return s
}

// startBenchServer starts a bench server on a loopback port; the caller
// closes s.srv.
func startBenchServer(cfg benchConfig) *benchServer {
	s := &benchServer{cfg: cfg}
	s.pages = benchPages(cfg.Tools)
	// A run of x needs no escaping: quoted by hand, not by json.Marshal,
	// which took a tenth of a second under -race at every server's start.
	s.big = []byte(`{"content":[{"type":"text","text":"` + strings.Repeat("x", benchBig) + `"}],"isError":false}`)
	s.srv = httptest.NewUnstartedServer(s)
	s.srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.srv.Start()
	return s
}

// benchPages encodes the results of tools/list, benchPage tools a page.
func benchPages(n int) [][]byte {
	if n <= 0 {
		return [][]byte{[]byte(`{"tools":[` + benchTool("echo") + `,` + benchTool("big") + `]}`)}
	}
	var pages [][]byte
	for start := 0; start < n; start += benchPage {
		p := []byte(`{"tools":[`)
		for i := start; i < min(start+benchPage, n); i++ {
			if i > start {
				p = append(p, ',')
			}
			p = append(p, benchTool("tool-"+strconv.Itoa(i))...)
		}
		p = append(p, ']')
		if start+benchPage < n {
			p = append(p, `,"nextCursor":"`+strconv.Itoa(len(pages)+1)+`"`...)
		}
		pages = append(pages, append(p, '}'))
	}
	return pages
}

func benchTool(name string) string {
	return `{"name":"` + name + `","description":"A tool of the bench server, named ` + name +
		`.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}`
}

// benchRequest is a request as the server decodes it.
type benchRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string `json:"name"`
		Cursor    string `json:"cursor"`
		Arguments struct {
			Text string `json:"text"`
		} `json:"arguments"`
		Meta struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	} `json:"params"`
}

func (s *benchServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
	case http.MethodGet:
		w.WriteHeader(http.StatusMethodNotAllowed) // no stream for server-initiated messages
		return
	case http.MethodDelete:
		return
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var req benchRequest
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	if msg := s.checkRequest(r, &req); msg != "" {
		http.Error(w, msg, http.StatusBadRequest)
		return
	}
	if len(req.ID) == 0 { // a notification
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if req.Method == "initialize" {
		w.Header().Set("Mcp-Session-Id", benchSession)
	}
	s.answer(w, s.response(&req))
}

// response is the JSON-RPC response to req.
func (s *benchServer) response(req *benchRequest) []byte {
	resp := append(make([]byte, 0, 256), `{"jsonrpc":"2.0","id":`...)
	resp = append(resp, req.ID...)
	page, _ := strconv.Atoi(req.Params.Cursor)
	switch {
	case req.Method == "initialize":
		resp = append(resp, `,"result":{"protocolVersion":"`+benchHandshake+`","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1"}}}`...)
	case req.Method == "tools/call" && req.Params.Name == "echo":
		text, _ := json.Marshal(req.Params.Arguments.Text)
		resp = append(resp, `,"result":{"content":[{"type":"text","text":`...)
		resp = append(resp, text...)
		resp = append(resp, `}],"isError":false}}`...)
	case req.Method == "tools/call" && req.Params.Name == "big":
		resp = append(append(append(resp, `,"result":`...), s.big...), '}')
	case req.Method == "tools/list" && page >= 0 && page < len(s.pages):
		resp = append(append(append(resp, `,"result":`...), s.pages[page]...), '}')
	default:
		resp = append(resp, `,"error":{"code":-32601,"message":"method not found"}}`...)
	}
	return resp
}

// answer writes resp as a JSON body or as one event of a stream.
func (s *benchServer) answer(w http.ResponseWriter, resp []byte) {
	if !s.cfg.SSE {
		w.Header().Set("Content-Type", "application/json")
		w.Write(resp)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	ev := make([]byte, 0, len(resp)+32)
	ev = append(ev, "event: message\ndata: "...)
	ev = append(ev, resp...)
	ev = append(ev, "\n\n"...)
	w.Write(ev)
	w.(http.Flusher).Flush()
}

// checkRequest returns what is wrong with the request for the server's
// era, or "".
func (s *benchServer) checkRequest(r *http.Request, req *benchRequest) string {
	if r.Header.Get("Content-Type") != "application/json" {
		return "Content-Type"
	}
	if req.Method == "initialize" {
		return ""
	}
	if s.cfg.Stateless {
		if r.Header.Get("MCP-Protocol-Version") != benchStateless {
			return "MCP-Protocol-Version"
		}
		if r.Header.Get("Mcp-Method") != req.Method {
			return "Mcp-Method"
		}
		if req.Method == "tools/call" && r.Header.Get("Mcp-Name") != req.Params.Name {
			return "Mcp-Name"
		}
		if len(req.ID) > 0 && req.Params.Meta.Version != benchStateless {
			return "_meta"
		}
		return ""
	}
	if r.Header.Get("MCP-Protocol-Version") != benchHandshake {
		return "MCP-Protocol-Version"
	}
	if r.Header.Get("Mcp-Session-Id") != benchSession {
		return "Mcp-Session-Id"
	}
	return ""
}
