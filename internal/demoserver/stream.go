package demoserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// sessionStream wraps the client's stream for one session. It watches the
// frames going by for three things the Conn does not offer:
//
//   - it holds back the read loop until the session is wired up, so no
//     handler can see the session half built;
//   - it notes when an initialize request has been read, so requests a
//     client sent right behind it wait for it instead of racing it;
//   - it counts the responses the client is owed, so that when the client
//     ends its side of the stream (a stdio client closing stdin after its
//     last request) the requests in flight are still answered before the
//     Conn learns of the end and stops. The wait is bounded by the linger
//     time and ends early if the stream is closed.
//
// It also records why reading stopped: the Conn reports a clean EOF and a
// broken stream alike as "disconnected".
type sessionStream struct {
	jsonrpc.Stream
	ss     *session
	linger time.Duration
	start  chan struct{} // closed when reading may begin
	err    error         // the error that ended reading; set by Read only

	mu      sync.Mutex
	owed    int           // requests read (a batch counts once) and neither answered nor cancelled
	changed chan struct{} // 1-buffered: owed went down

	closed    chan struct{}
	closeOnce sync.Once
}

func newSessionStream(s jsonrpc.Stream, ss *session, linger time.Duration) *sessionStream {
	return &sessionStream{
		Stream:  s,
		ss:      ss,
		linger:  linger,
		start:   make(chan struct{}),
		changed: make(chan struct{}, 1),
		closed:  make(chan struct{}),
	}
}

func (s *sessionStream) Read() ([]byte, error) {
	<-s.start
	frame, err := s.Stream.Read()
	if err == io.EOF {
		s.drain()
	}
	if err != nil {
		s.err = err
		return nil, err
	}
	s.inspect(frame)
	return frame, nil
}

func (s *sessionStream) Write(ctx context.Context, frame []byte) error {
	err := s.Stream.Write(ctx, frame)
	if isResponse(frame) {
		// Written or not, this answer is settled.
		s.settle()
	}
	return err
}

func (s *sessionStream) Close() error {
	s.closeOnce.Do(func() { close(s.closed) })
	return s.Stream.Close()
}

// inspect counts the requests in a frame the Conn is about to handle and
// notes an initialize request. Frames the Conn will drop count for nothing.
func (s *sessionStream) inspect(frame []byte) {
	var msgs []*rpcwire.Message
	if trimmed := bytes.TrimLeft(frame, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '[' {
		msgs, _, _ = rpcwire.DecodeBatch(frame)
	} else if m, err := rpcwire.Decode(frame); err == nil {
		msgs = append(msgs, m)
	}
	requests := false
	for _, m := range msgs {
		if m == nil || !m.IsRequest() {
			continue
		}
		requests = true
		if m.Method == "initialize" {
			s.ss.initRead.Store(true)
		}
	}
	if requests {
		s.mu.Lock()
		s.owed++
		s.mu.Unlock()
	}
}

// settle records that a request was answered or cancelled.
func (s *sessionStream) settle() {
	s.mu.Lock()
	s.owed--
	s.mu.Unlock()
	s.wake()
}

// wake tells drain that what it waits for may have changed: a request
// settled, or a listen request opened.
func (s *sessionStream) wake() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// drain waits until every request read has been answered, the linger time
// has passed, or the stream is closed. An open subscriptions/listen request
// is not waited for: it lasts until the client ends it, and a client that
// ended its side of the stream has ended it.
func (s *sessionStream) drain() {
	if s.linger <= 0 {
		return
	}
	timer := time.NewTimer(s.linger)
	defer timer.Stop()
	for {
		listening := s.ss.listening()
		s.mu.Lock()
		owed := s.owed - listening
		s.mu.Unlock()
		if owed <= 0 {
			return
		}
		select {
		case <-s.changed:
		case <-timer.C:
			return
		case <-s.closed:
			return
		}
	}
}

// isResponse reports whether a frame our Conn writes is a response: the
// first top-level member that tells is "result" or "error", not "method".
// Only the start of the frame is read, however large the result. The Conn
// writes an array only to answer a batch.
func isResponse(frame []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(frame))
	switch tok, err := dec.Token(); {
	case err != nil:
		return false
	case tok == json.Delim('['):
		return true
	case tok != json.Delim('{'):
		return false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		switch key {
		case "result", "error":
			return true
		case "method":
			return false
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return false
}
