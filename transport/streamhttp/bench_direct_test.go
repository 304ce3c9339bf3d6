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
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/transport"
)

// The benchmarks in this file measure a large answer: a tools/call whose
// result is 1 MiB of text, answered as application/json (with its
// Content-Length) or as one event of an event stream, over the stateless
// wire. BenchmarkHTTPCall1MiB is a jsonrpc.Conn over Dial's Stream;
// BenchmarkHTTPCall1MiBFloor the same exchange by hand with net/http and
// encoding/json (io.ReadAll for the body, bufio.Reader.ReadBytes for the
// event's line). Compare B/op: what reading and decoding the answer costs
// beside the floor.

// bigText is the text of the 1 MiB result: lines of prose, as a large tool
// result is.
var bigText = func() string {
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString("the quick brown fox jumps over the lazy dog, again and again\n")
	}
	return b.String()[:1<<20]
}()

// newBigServer answers every request with the response carrying bigText,
// with the request's id.
func newBigServer(b *testing.B, sse bool) *httptest.Server {
	text, _ := json.Marshal(bigText)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&req); err != nil || len(req.ID) == 0 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		resp := make([]byte, 0, len(text)+128)
		if sse {
			resp = append(resp, "event: message\ndata: "...)
		}
		resp = append(resp, `{"jsonrpc":"2.0","id":`...)
		resp = append(resp, req.ID...)
		resp = append(resp, `,"result":{"content":[{"type":"text","text":`...)
		resp = append(resp, text...)
		resp = append(resp, `}],"isError":false}}`...)
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			resp = append(resp, "\n\n"...)
		} else {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(len(resp)))
		}
		w.Write(resp)
	}))
	b.Cleanup(srv.Close)
	return srv
}

func checkBig(r *echoResult) error {
	if len(r.Content) != 1 || len(r.Content[0].Text) != len(bigText) || r.IsError {
		return errors.New("unexpected result")
	}
	return nil
}

// BenchmarkHTTPCall1MiB is plainmcp's transport receiving a 1 MiB result.
func BenchmarkHTTPCall1MiB(b *testing.B) {
	for _, body := range benchBodies {
		b.Run(body.name, func(b *testing.B) {
			srv := newBigServer(b, body.sse)
			stream, err := Dial(context.Background(), Config{URL: srv.URL})
			if err != nil {
				b.Fatal(err)
			}
			stream.SetProtocol(transport.Protocol{Version: benchStateless, Stateless: true})
			conn := jsonrpc.NewConn(stream, nil)
			b.Cleanup(func() { conn.Close() })
			b.ReportAllocs()
			b.SetBytes(int64(len(bigText)))
			for i := 0; i < b.N; i++ {
				var res echoResult
				if err := conn.Call(context.Background(), "tools/call", benchParams, &res); err != nil {
					b.Fatal(err)
				}
				if err := checkBig(&res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHTTPCall1MiBFloor is the same exchange by hand.
func BenchmarkHTTPCall1MiBFloor(b *testing.B) {
	for _, body := range benchBodies {
		b.Run(body.name, func(b *testing.B) {
			srv := newBigServer(b, body.sse)
			tr := http.DefaultTransport.(*http.Transport).Clone()
			b.Cleanup(tr.CloseIdleConnections)
			client := &http.Client{Transport: tr}
			b.ReportAllocs()
			b.SetBytes(int64(len(bigText)))
			for i := 0; i < b.N; i++ {
				var res echoResult
				if err := floorBig(client, srv.URL, int64(i+1), &res); err != nil {
					b.Fatal(err)
				}
				if err := checkBig(&res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func floorBig(client *http.Client, url string, id int64, res *echoResult) error {
	frame, err := json.Marshal(floorHTTPRequest{JSONRPC: "2.0", ID: id, Method: "tools/call", Params: benchParams})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(frame))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var data []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		br := bufio.NewReader(resp.Body)
		for data == nil {
			line, err := br.ReadBytes('\n')
			if err != nil {
				return err
			}
			if v, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
				data = v
			}
		}
		io.Copy(io.Discard, br)
	} else if data, err = io.ReadAll(resp.Body); err != nil {
		return err
	}
	r := floorHTTPResponse{Result: res}
	if err := json.Unmarshal(data, &r); err != nil {
		return err
	}
	if r.ID != id {
		return fmt.Errorf("response id %d, want %d", r.ID, id)
	}
	return nil
}
