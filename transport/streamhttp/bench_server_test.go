package streamhttp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
)

// The bench server answers the benchmarks of bench_test.go: tools/call of
// an echo tool, answered as application/json or as text/event-stream (one
// "message" event with the response, flushed, then the end of the
// response, as the SDKs' servers do). It counts the TCP connections it
// accepts, and it checks the headers each era requires, so that the floor
// and the transport send the same requests.

const (
	benchHandshake = "2025-06-18"
	benchStateless = "2026-07-28"
	benchSession   = "bench-session-1"
	benchText      = "hello, benchmark"
)

type benchServer struct {
	srv       *httptest.Server
	sse       bool // answer requests with an event stream
	stateless bool // require the stateless era's headers
	conns     atomic.Int64
}

func newBenchServer(b testing.TB, sse, stateless bool) *benchServer {
	s := &benchServer{sse: sse, stateless: stateless}
	s.srv = httptest.NewUnstartedServer(s)
	s.srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.srv.Start()
	b.Cleanup(s.srv.Close)
	return s
}

// benchRequest is a request as the server decodes it.
type benchRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string `json:"name"`
		Arguments struct {
			Text string `json:"text"`
		} `json:"arguments"`
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
	if msg := s.checkHeaders(r, &req); msg != "" {
		http.Error(w, msg, http.StatusBadRequest)
		return
	}
	if len(req.ID) == 0 { // a notification
		w.WriteHeader(http.StatusAccepted)
		return
	}
	resp := append(make([]byte, 0, 256), `{"jsonrpc":"2.0","id":`...)
	resp = append(resp, req.ID...)
	switch req.Method {
	case "initialize":
		w.Header().Set("Mcp-Session-Id", benchSession)
		resp = append(resp, `,"result":{"protocolVersion":"`+benchHandshake+`","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1"}}}`...)
	case "tools/call":
		text, _ := json.Marshal(req.Params.Arguments.Text)
		resp = append(resp, `,"result":{"content":[{"type":"text","text":`...)
		resp = append(resp, text...)
		resp = append(resp, `}],"isError":false}}`...)
	default:
		resp = append(resp, `,"error":{"code":-32601,"message":"method not found"}}`...)
	}
	if !s.sse {
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

// checkHeaders returns what is wrong with the request's headers for the
// server's era, or "".
func (s *benchServer) checkHeaders(r *http.Request, req *benchRequest) string {
	if r.Header.Get("Content-Type") != "application/json" {
		return "Content-Type"
	}
	if req.Method == "initialize" {
		return ""
	}
	if s.stateless {
		if r.Header.Get("MCP-Protocol-Version") != benchStateless {
			return "MCP-Protocol-Version"
		}
		if r.Header.Get("Mcp-Method") != req.Method {
			return "Mcp-Method"
		}
		if req.Method == "tools/call" && r.Header.Get("Mcp-Name") != req.Params.Name {
			return "Mcp-Name"
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

// rawClient is an HTTP/1.1 client of almost no cost of its own: one kept
// connection, a request written from prepared bytes, the answer parsed by
// hand into reused buffers. BenchmarkHTTPServerOnly uses it to measure
// what the bench server itself costs per call, which every other
// benchmark here includes.
type rawClient struct {
	conn net.Conn
	br   *bufio.Reader
	req  []byte
	body []byte
}

func newRawClient(b testing.TB, s *benchServer) *rawClient {
	conn, err := net.Dial("tcp", s.srv.Listener.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	frame := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + benchText + `"}}}`
	req := "POST / HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n" +
		"Accept: application/json, text/event-stream\r\n" +
		"MCP-Protocol-Version: " + benchHandshake + "\r\nMcp-Session-Id: " + benchSession + "\r\n" +
		"Content-Length: " + strconv.Itoa(len(frame)) + "\r\n\r\n" + frame
	return &rawClient{conn: conn, br: bufio.NewReaderSize(conn, 4096), req: []byte(req), body: make([]byte, 0, 4096)}
}

// call sends the request and returns the body of the answer (chunked or
// not), valid until the next call.
func (c *rawClient) call() ([]byte, error) {
	if _, err := c.conn.Write(c.req); err != nil {
		return nil, err
	}
	length, chunked := -1, false
	for i := 0; ; i++ {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			return nil, err
		}
		if i == 0 && !bytes.HasPrefix(line, []byte("HTTP/1.1 200 ")) {
			return nil, fmt.Errorf("status line %q", line)
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		if i > 64 {
			return nil, errors.New("too many header lines")
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			length, err = strconv.Atoi(string(value))
			if err != nil {
				return nil, err
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		}
	}
	c.body = c.body[:0]
	if !chunked {
		if length < 0 || length > cap(c.body) {
			return nil, fmt.Errorf("content length %d", length)
		}
		c.body = c.body[:length]
		_, err := io.ReadFull(c.br, c.body)
		return c.body, err
	}
	for range 64 {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			return nil, err
		}
		size, err := strconv.ParseInt(string(bytes.TrimRight(line, "\r\n")), 16, 32)
		if err != nil {
			return nil, err
		}
		if size == 0 {
			_, err := c.br.ReadSlice('\n') // the empty trailer
			return c.body, err
		}
		if len(c.body)+int(size) > cap(c.body) {
			return nil, errors.New("body too large")
		}
		n := len(c.body)
		c.body = c.body[:n+int(size)]
		if _, err := io.ReadFull(c.br, c.body[n:]); err != nil {
			return nil, err
		}
		if _, err := c.br.Discard(2); err != nil {
			return nil, err
		}
	}
	return nil, errors.New("too many chunks")
}
