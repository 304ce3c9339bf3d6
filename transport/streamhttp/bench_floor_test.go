package streamhttp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// floorHTTP is a hand-written Streamable HTTP client of one server.
type floorHTTP struct {
	client    *http.Client
	url       string
	stateless bool
	session   string
	id        atomic.Int64
}

// floorReaders are the floor's bufio.Readers for event streams, recycled.
var floorReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4096) }}

type floorHTTPRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id,omitempty"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

type floorHTTPResponse struct {
	ID     int64 `json:"id"`
	Result any   `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func newFloorHTTP(b *testing.B, srv *benchServer, stateless bool) *floorHTTP {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	f, err := dialFloor(ctx, srv.srv.URL, stateless)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.close() })
	return f
}

// dialFloor makes a floor client with a pool of its own and, in the
// handshake era, opens a session.
func dialFloor(ctx context.Context, url string, stateless bool) (*floorHTTP, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 2 * benchInFlight
	tr.MaxIdleConnsPerHost = 2 * benchInFlight
	f := &floorHTTP{client: &http.Client{Transport: tr}, url: url, stateless: stateless}
	if stateless {
		return f, nil
	}
	init := map[string]any{
		"protocolVersion": benchHandshake,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "bench", "version": "1"},
	}
	var res json.RawMessage
	resp, err := f.post(ctx, "initialize", "", init, &res)
	if err == nil {
		f.session = resp.Header.Get("Mcp-Session-Id")
		_, err = f.post(ctx, "notifications/initialized", "", nil, nil)
	}
	if err != nil {
		tr.CloseIdleConnections()
		return nil, err
	}
	return f, nil
}

// close ends the session (DELETE, in the handshake era) and closes the
// pool's connections.
func (f *floorHTTP) close() error {
	defer f.client.Transport.(*http.Transport).CloseIdleConnections()
	if f.session == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), deleteTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, f.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("MCP-Protocol-Version", benchHandshake)
	req.Header.Set("Mcp-Session-Id", f.session)
	resp, err := f.client.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

func (f *floorHTTP) callEcho(ctx context.Context) error {
	return f.callTool(ctx, "echo", len(benchText))
}

// callTool calls the echo or the big tool and checks the length of the
// text it answers.
func (f *floorHTTP) callTool(ctx context.Context, name string, want int) error {
	var res echoResult
	if _, err := f.post(ctx, "tools/call", name, toolParams(name, f.stateless), &res); err != nil {
		return err
	}
	return res.check(want)
}

// list lists every tool, page after page, and returns how many there are.
func (f *floorHTTP) list(ctx context.Context) (int, error) {
	n, cursor := 0, ""
	for range 1000 {
		var res listResult
		if _, err := f.post(ctx, "tools/list", "", listParamsFor(cursor, f.stateless), &res); err != nil {
			return 0, err
		}
		n += len(res.Tools)
		if cursor = res.NextCursor; cursor == "" {
			return n, nil
		}
	}
	return 0, errors.New("more than 1000 pages")
}

// post sends one message and, for a request, decodes the response's result
// into result; name is what Mcp-Name mirrors, if anything. Every body is
// read to its end.
func (f *floorHTTP) post(ctx context.Context, method, name string, params, result any) (*http.Response, error) {
	m := floorHTTPRequest{JSONRPC: "2.0", Method: method, Params: params}
	if result != nil {
		m.ID = f.id.Add(1)
	}
	frame, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.url, bytes.NewReader(frame))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	switch {
	case f.stateless:
		req.Header.Set("MCP-Protocol-Version", benchStateless)
		req.Header.Set("Mcp-Method", method)
		if name != "" {
			req.Header.Set("Mcp-Name", name)
		}
	case f.session != "":
		req.Header.Set("MCP-Protocol-Version", benchHandshake)
		req.Header.Set("Mcp-Session-Id", f.session)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s: %s", method, resp.Status)
	}
	if result == nil {
		_, err := io.Copy(io.Discard, resp.Body)
		return resp, err
	}
	var data []byte
	switch ct := resp.Header.Get("Content-Type"); {
	case strings.HasPrefix(ct, "application/json"):
		data, err = io.ReadAll(resp.Body)
	case strings.HasPrefix(ct, "text/event-stream"):
		data, err = floorEvent(resp.Body)
	default:
		err = fmt.Errorf("content type %q", ct)
	}
	if err != nil {
		return nil, err
	}
	r := floorHTTPResponse{Result: result}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	switch {
	case r.Error != nil:
		return nil, fmt.Errorf("%s: %d %s", method, r.Error.Code, r.Error.Message)
	case r.ID != m.ID:
		return nil, fmt.Errorf("%s: response id %d, want %d", method, r.ID, m.ID)
	}
	return resp, nil
}

// floorEvent returns the data of the first event of an event stream, and
// reads the rest of the stream. A line longer than the reader's buffer
// is taken in pieces, each appended to the data as it comes.
func floorEvent(body io.Reader) ([]byte, error) {
	br := floorReaders.Get().(*bufio.Reader)
	br.Reset(body)
	defer func() {
		br.Reset(nil)
		floorReaders.Put(br)
	}()
	var data []byte
	inLine, isData := false, false // within a long line; a data line
	for range 1 << 16 {
		chunk, err := br.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull {
			return nil, err
		}
		end := err == nil
		if end {
			chunk = bytes.TrimRight(chunk, "\r\n")
		}
		if !inLine {
			if end && len(chunk) == 0 {
				if data == nil {
					continue
				}
				_, err := io.Copy(io.Discard, br)
				return data, err
			}
			chunk, isData = bytes.CutPrefix(chunk, []byte("data:"))
			if isData {
				chunk = bytes.TrimPrefix(chunk, []byte(" "))
				if data != nil {
					data = append(data, '\n')
				}
			}
		}
		if isData {
			data = appendDoubling(data, chunk)
		}
		inLine = !end
	}
	return nil, errors.New("no event in 65536 reads")
}

// appendDoubling appends b to data, doubling its capacity when it must
// grow (append grows large slices by a quarter, which costs a long event
// about five times its size in copies).
func appendDoubling(data, b []byte) []byte {
	if len(data)+len(b) > cap(data) {
		grown := make([]byte, len(data), 2*cap(data)+len(b))
		copy(grown, data)
		data = grown
	}
	return append(data, b...)
}
