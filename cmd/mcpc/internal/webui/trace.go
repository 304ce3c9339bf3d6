package webui

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// Bounds of the trace: the frames it keeps, and the bytes of each.
const (
	traceFrames   = 2000
	traceMaxFrame = 16 << 10
)

// Trace keeps the last JSON-RPC frames of every server, for the page's
// wire view. It is safe for concurrent use; the zero value is ready.
type Trace struct {
	mu     sync.Mutex
	seq    int64
	frames []Frame // a ring of the last traceFrames
}

// Frame is one frame on a server's wire. Text is the frame as sent, cut
// at traceMaxFrame bytes (Cut says so): it is shown as text, never HTML.
type Frame struct {
	Seq    int64     `json:"seq"`
	Server string    `json:"server"`
	Out    bool      `json:"out"` // sent to the server
	Time   time.Time `json:"time"`
	Text   string    `json:"text"`
	Cut    bool      `json:"cut,omitempty"`
}

func (t *Trace) add(server string, out bool, frame []byte) {
	f := Frame{Server: server, Out: out, Time: time.Now()}
	if len(frame) > traceMaxFrame {
		frame, f.Cut = frame[:traceMaxFrame], true
	}
	f.Text = string(frame)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	f.Seq = t.seq
	if len(t.frames) == traceFrames {
		copy(t.frames, t.frames[1:])
		t.frames = t.frames[:traceFrames-1]
	}
	t.frames = append(t.frames, f)
}

// Since returns the frames after seq, oldest first; of server alone when
// server is not empty.
func (t *Trace) Since(seq int64, server string) []Frame {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	out := []Frame{}
	for _, f := range t.frames {
		if f.Seq > seq && (server == "" || f.Server == server) {
			out = append(out, f)
		}
	}
	return out
}

// Last is the sequence number of the newest frame.
func (t *Trace) Last() int64 {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seq
}

type tracedStream struct {
	jsonrpc.Stream
	t      *Trace
	server string
}

func (s *tracedStream) Read() ([]byte, error) {
	b, err := s.Stream.Read()
	if err == nil {
		s.t.add(s.server, false, b)
	}
	return b, err
}

func (s *tracedStream) Write(ctx context.Context, frame []byte) error {
	if json.Valid(frame) {
		s.t.add(s.server, true, frame)
	}
	return s.Stream.Write(ctx, frame)
}

// Call keeps the direct path of a stream that answers a request on the
// calling goroutine (rpcwire.Caller: Streamable HTTP), recording the
// request and the answer it returns; a stream without one gets the
// request through Write, and its answer is recorded by Read.
func (s *tracedStream) Call(ctx context.Context, id jsonrpc.ID, method string, frame []byte) ([]byte, error) {
	c, ok := s.Stream.(rpcwire.Caller)
	if !ok {
		return nil, s.Write(ctx, frame)
	}
	if json.Valid(frame) {
		s.t.add(s.server, true, frame)
	}
	answer, err := c.Call(ctx, id, method, frame)
	if answer != nil {
		s.t.add(s.server, false, answer)
	}
	return answer, err
}

// NotifyRead passes on the Conn's wish to hear when Read first has
// something (rpcwire.ReadNotifier).
func (s *tracedStream) NotifyRead(f func()) { rpcwire.NotifyRead(s.Stream, f) }
