package jsonrpc

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

// memStream is one end of an in-memory frame pipe, just enough for this
// package's tests (the transport package has the real one).
type memStream struct {
	in        chan []byte
	out       chan []byte
	closed    chan struct{}
	peerGone  chan struct{}
	closeOnce sync.Once
}

func memPipe() (*memStream, *memStream) {
	ab, ba := make(chan []byte, 16), make(chan []byte, 16)
	ca, cb := make(chan struct{}), make(chan struct{})
	return &memStream{in: ba, out: ab, closed: ca, peerGone: cb},
		&memStream{in: ab, out: ba, closed: cb, peerGone: ca}
}

func (s *memStream) Read() ([]byte, error) {
	select {
	case f := <-s.in:
		return f, nil
	case <-s.closed:
		return nil, fmt.Errorf("reading: %w", ErrClosed)
	case <-s.peerGone:
		select {
		case f := <-s.in:
			return f, nil
		default:
			return nil, io.EOF
		}
	}
}

func (s *memStream) Write(ctx context.Context, frame []byte) error {
	f := append([]byte(nil), frame...)
	select {
	case s.out <- f:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.closed:
		return ErrClosed
	case <-s.peerGone:
		return io.ErrClosedPipe
	}
}

func (s *memStream) Close() error {
	s.closeOnce.Do(func() { close(s.closed) })
	return nil
}

// rawPeer is the far end driven by hand: the test reads what the Conn sent
// and writes whatever frames it wants, valid or not.
type rawPeer struct {
	t *testing.T
	s *memStream
}

func (p rawPeer) send(frame string) {
	p.t.Helper()
	if err := p.s.Write(context.Background(), []byte(frame)); err != nil {
		p.t.Fatalf("peer write: %v", err)
	}
}

func (p rawPeer) recv() string {
	p.t.Helper()
	select {
	case f := <-p.s.in:
		return string(f)
	case <-time.After(5 * time.Second):
		p.t.Fatal("peer: nothing received within 5s")
		return ""
	}
}

func checkGoroutines(t *testing.T) { t.Helper(); leakcheck.Check(t) }

// logSink collects log records as text for assertions.
type logSink struct {
	mu      sync.Mutex
	buf     strings.Builder
	written chan struct{} // made by waitFor; a Write wakes it
}

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.written != nil {
		select {
		case l.written <- struct{}{}:
		default:
		}
	}
	return l.buf.Write(p)
}

func (l *logSink) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logSink) waitFor(t *testing.T, s string) {
	t.Helper()
	l.mu.Lock()
	if l.written == nil {
		l.written = make(chan struct{}, 1)
	}
	written := l.written
	l.mu.Unlock()
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for !strings.Contains(l.String(), s) {
		select {
		case <-written:
		case <-deadline.C:
			t.Fatalf("log never mentioned %q; log:\n%s", s, l.String())
		}
	}
}
