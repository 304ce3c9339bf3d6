package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

// loopback returns a LineStream that reads back what it writes, through an
// OS pipe.
func loopback(t *testing.T) *LineStream {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s := NewLineStream(r, w, nil)
	t.Cleanup(func() { s.Close() })
	return s
}

func TestLineStreamRoundTrip(t *testing.T) {
	checkLeaks(t)
	s := loopback(t)
	frame := []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if err := s.Write(context.Background(), frame); err != nil {
		t.Fatalf("Write: %v", err)
	}
	got, err := s.Read()
	if err != nil || !bytes.Equal(got, frame) {
		t.Errorf("Read: got %s, %v; want %s", got, err, frame)
	}
}

func TestLineStreamWritesDoNotInterleave(t *testing.T) {
	checkLeaks(t)
	s := loopback(t)
	const writers, each = 8, 6
	want := make(map[string]bool)
	var wg sync.WaitGroup
	for w := range writers {
		frames := make([]string, each)
		for i := range frames {
			// Some frames are far larger than a pipe's buffer, so that their
			// writes take many system calls.
			frames[i] = fmt.Sprintf(`{"w":%d,"i":%d,"pad":"%s"}`, w, i, strings.Repeat("p", (w*each+i)*7001%300000))
			want[frames[i]] = true
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, f := range frames {
				if err := s.Write(context.Background(), []byte(f)); err != nil {
					t.Errorf("Write: %v", err)
				}
			}
		}()
	}
	for range writers * each {
		frame, err := readWithin(t, s, 10*time.Second)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if !want[string(frame)] {
			t.Fatalf("read a frame no one wrote: %.80s…", frame)
		}
		delete(want, string(frame))
	}
	wg.Wait()
}

func TestLineStreamWriteHonoursContext(t *testing.T) {
	// A frame cut short by its context is torn: a small one (written in
	// one piece, after a first frame has nearly filled the pipe's 64 KiB)
	// or a large one (written in pieces). The next frame, under a context
	// that cannot end or one that can (a host's, whose write sets a
	// deadline after the cut one's interrupt), still arrives whole.
	cancellable := func() context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		return ctx
	}
	for _, tc := range []struct {
		name      string
		fill, big int // sizes of a first frame that fits and of the one cut short
		next      func() context.Context
	}{
		{"small", 60 << 10, 60 << 10, context.Background},
		{"small/cancellable", 60 << 10, 60 << 10, cancellable},
		{"large", 0, 4 << 20, context.Background},
		{"large/cancellable", 0, 4 << 20, cancellable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLeaks(t)
			s := loopback(t)
			if tc.fill > 0 {
				if err := s.Write(context.Background(), padded("fill", tc.fill)); err != nil {
					t.Fatalf("Write: %v", err)
				}
			}
			// No one reads, so the frame blocks.
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			if err := s.Write(ctx, padded("big", tc.big)); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Write: got %v, want context.DeadlineExceeded", err)
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("Write took %v to notice its context", took)
			}

			// The half-written frame is cut off by a newline of its own.
			next := []byte(`{"next":true}`)
			written := make(chan error, 1)
			go func() { written <- s.Write(tc.next(), next) }()
			readUntil(t, s, next, `{"fill":"xxx`, `{"big":"xxx`)
			if err := <-written; err != nil {
				t.Errorf("Write after the cut one: %v", err)
			}
		})
	}
}

// padded is a frame of about n bytes whose one member is named name.
func padded(name string, n int) []byte {
	return []byte(`{"` + name + `":"` + strings.Repeat("x", n) + `"}`)
}

// readUntil reads frames until want, failing on any frame that is neither
// want nor begins with one of the prefixes.
func readUntil(t *testing.T, s *LineStream, want []byte, prefixes ...string) {
	t.Helper()
	for {
		frame, err := readWithin(t, s, 10*time.Second)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if bytes.Equal(frame, want) {
			return
		}
		if !slices.ContainsFunc(prefixes, func(p string) bool { return bytes.HasPrefix(frame, []byte(p)) }) ||
			bytes.Contains(frame, want) {
			t.Fatalf("read %.40q…, want %s or a frame that begins with one of %q", frame, want, prefixes)
		}
	}
}

func TestLineStreamWriteWaitsPastItsDeadline(t *testing.T) {
	// A write under a context that can end runs under a write deadline
	// until it waits past it; then it must go on waiting, for as long as
	// its context lasts. A write under a context that cannot end must
	// not be ended by the deadline a write before it left. Neither may
	// tear its frame: a small one, written in one piece, or a large one.
	checkLeaks(t)
	s := loopback(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The reader pauses before the first two frames: a write under a
	// context that cannot end waits, on the deadline the first frame's
	// write left, then one under a context that can end waits past the
	// deadline it set. Should the writer be slower than the pauses, the
	// test cannot fail, only test less.
	frames := []struct {
		ctx   context.Context
		frame []byte
		pause bool // before reading it
	}{
		{ctx, padded("a", 60<<10), true},
		{context.Background(), padded("b", 60<<10), true},
		{ctx, padded("c", 60<<10), false},
		{context.Background(), padded("d", 1<<20), false},
		{ctx, padded("e", 60<<10), false},
		{ctx, padded("f", 1<<20), false},
	}
	written := make(chan error, 1)
	go func() {
		for _, f := range frames {
			if err := s.Write(f.ctx, f.frame); err != nil {
				written <- err
				s.Close() // the reader stops at once
				return
			}
		}
		written <- nil
	}()
	for _, want := range frames {
		if want.pause {
			time.Sleep(3 * quickWindow)
		}
		got, err := readWithin(t, s, 10*time.Second)
		if err != nil {
			select {
			case werr := <-written:
				t.Fatalf("Read: %v; Write: %v", err, werr)
			default:
				t.Fatalf("Read: %v", err)
			}
		}
		if !bytes.Equal(got, want.frame) {
			t.Fatalf("read %.20q… (%d bytes), want %.20q… (%d bytes)", got, len(got), want.frame, len(want.frame))
		}
	}
	if err := <-written; err != nil {
		t.Fatalf("Write: %v", err)
	}
}

func TestLineStreamQuickWrites(t *testing.T) {
	// A write that finds room in the pipe does not watch its context, and
	// leaves a deadline in place for the next, whichever deadline it
	// finds: the past one an interrupted write left, one set by the
	// writes before it, or one that passed while no one wrote. (A write
	// that watched its context would have cleared it.)
	checkLeaks(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s := NewLineStream(strings.NewReader(""), w, nil)
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frame := []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	write := func(after string) {
		t.Helper()
		if err := s.Write(ctx, frame); err != nil {
			t.Fatalf("Write %s: %v", after, err)
		}
		// Not zero, as a write that watched its context leaves it, nor
		// the interrupt's: a deadline this write or one before it set.
		// (Whether it is still to come depends on how fast the test runs.)
		if !s.quickBy.After(pastDeadline) {
			t.Errorf("a write %s left the deadline %v, want one it set", after, s.quickBy)
		}
	}
	// The write buffer grows once, to more than write needs.
	if err := s.Write(ctx, padded("warm", 200)); err != nil {
		t.Fatalf("Write: %v", err)
	}

	// No one reads yet: a frame larger than the pipe is interrupted.
	short, cancelShort := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancelShort()
	if err := s.Write(short, padded("big", 1<<20)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Write: got %v, want context.DeadlineExceeded", err)
	}
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		buf := make([]byte, 64<<10)
		for {
			if _, err := r.Read(buf); err != nil {
				return
			}
		}
	}()
	defer func() { r.Close(); <-drained }()

	write("after an interrupted one")
	if n := testing.AllocsPerRun(100, func() { write("in quick succession") }); n != 0 {
		t.Errorf("writes in quick succession: %v allocations a write, want 0", n)
	}
	time.Sleep(2 * quickWindow) // the deadline passes
	write("after a pause")
}

func TestLineStreamWriteWithoutDeadlines(t *testing.T) {
	var out bytes.Buffer
	s := NewLineStream(strings.NewReader(""), &out, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Write(ctx, []byte(`{}`)); err != context.Canceled {
		t.Errorf("Write with a cancelled context: got %v, want context.Canceled", err)
	}
	if err := s.Write(context.Background(), []byte(`{"a":1}`)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if got, want := out.String(), "{\"a\":1}\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
	if _, err := s.Read(); err != io.EOF {
		t.Errorf("Read at the end of input: got %v, want io.EOF", err)
	}
}

func TestLineStreamCloseUnblocks(t *testing.T) {
	checkLeaks(t)
	// Two pipes, neither served: Read waits for a frame that never comes,
	// Write for a reader that never reads.
	r, peerW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer peerW.Close()
	peerR, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer peerR.Close()
	s := NewLineStream(r, w, nil)
	reading := make(chan error, 1)
	go func() {
		_, err := s.Read()
		reading <- err
	}()
	writing := make(chan error, 1)
	go func() {
		// Larger than the pipe's buffer, with no one reading it.
		writing <- s.Write(context.Background(), bytes.Repeat([]byte("{"), 4<<20))
	}()
	// Time for Read and Write to block in their system calls: no event
	// says a goroutine waits in one. If they have not yet, Close ends them
	// all the same, so a slow start cannot fail the test, only make it
	// test less.
	time.Sleep(50 * time.Millisecond)
	for range 2 {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
	for what, c := range map[string]chan error{"Read": reading, "Write": writing} {
		select {
		case err := <-c:
			if !errors.Is(err, jsonrpc.ErrClosed) {
				t.Errorf("%s during Close: got %v, want ErrClosed", what, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Close did not unblock %s", what)
		}
	}
	if _, err := s.Read(); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("Read after Close: got %v, want ErrClosed", err)
	}
	if err := s.Write(context.Background(), []byte(`{}`)); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("Write after Close: got %v, want ErrClosed", err)
	}
}
