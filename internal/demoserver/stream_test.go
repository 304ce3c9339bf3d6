package demoserver

import (
	"context"
	"encoding/json"
	"io"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scriptStream plays a client that writes its frames and then closes its
// sending side at once, like `printf … | server`: Read returns the frames,
// then io.EOF; what the server writes is kept.
type scriptStream struct {
	mu      sync.Mutex
	in      []string
	out     []string
	closed  chan struct{}
	closing sync.Once
}

func newScript(frames ...string) *scriptStream {
	return &scriptStream{in: frames, closed: make(chan struct{})}
}

func (s *scriptStream) Read() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.in) == 0 {
		return nil, io.EOF
	}
	f := s.in[0]
	s.in = s.in[1:]
	return []byte(f), nil
}

func (s *scriptStream) Write(ctx context.Context, frame []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out = append(s.out, string(frame))
	return nil
}

func (s *scriptStream) Close() error {
	s.closing.Do(func() { close(s.closed) })
	return nil
}

// responseIDs returns the ids of the responses written, sorted.
func (s *scriptStream) responseIDs() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	type message struct {
		ID     *int
		Method string
	}
	var ids []int
	for _, f := range s.out {
		var batch []message
		if json.Unmarshal([]byte(f), &batch) != nil {
			var m message
			json.Unmarshal([]byte(f), &m)
			batch = append(batch, m)
		}
		for _, m := range batch {
			if m.ID != nil && m.Method == "" {
				ids = append(ids, *m.ID)
			}
		}
	}
	sort.Ints(ids)
	return ids
}

const (
	initFrame     = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	initedFrame   = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	listFrame     = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	slowFrame     = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{"steps":2,"delayMs":10}}}`
	verySlowFrame = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow","arguments":{"steps":1,"delayMs":60000}}}`
)

func TestPipelinedRequestsAreAnsweredAfterEOF(t *testing.T) {
	checkGoroutines(t)
	for i := 0; i < 20; i++ {
		s := newScript(initFrame, initedFrame, listFrame, slowFrame, `[`+strings.Replace(listFrame, `"id":2`, `"id":5`, 1)+`]`)
		if err := New(nil).Serve(context.Background(), s); err != nil {
			t.Fatalf("Serve = %v", err)
		}
		if d := cmp.Diff([]int{1, 2, 3, 5}, s.responseIDs()); d != "" {
			t.Fatalf("responses (-want +got):\n%s\nframes:\n%s", d, strings.Join(s.out, "\n"))
		}
		for _, f := range s.out {
			if strings.Contains(f, "not initialized") {
				t.Fatalf("a request sent right after initialize was refused: %s", f)
			}
		}
	}
}

func TestIsResponse(t *testing.T) {
	for _, tc := range []struct {
		frame string
		want  bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, true},
		{`{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"m"}}`, true},
		{`{"id":1,"jsonrpc":"2.0","result":` + strings.Repeat(`[`, 5000) + `}`, true},
		{`[{"jsonrpc":"2.0","id":1,"result":{}}]`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}}`, false},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`, false},
		{`{"params":{"result":1},"method":"x"}`, false},
		{`{}`, false},
		{`nonsense`, false},
	} {
		if got := isResponse([]byte(tc.frame)); got != tc.want {
			t.Errorf("isResponse(%.60s) = %v, want %v", tc.frame, got, tc.want)
		}
	}
}
