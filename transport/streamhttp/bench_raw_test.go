package streamhttp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"testing"
)

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
