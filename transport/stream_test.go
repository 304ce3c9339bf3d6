package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
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
	checkLeaks(t)
	s := loopback(t)
	// No one reads, so a frame larger than the pipe's buffer blocks.
	big := []byte(`{"big":"` + strings.Repeat("x", 4<<20) + `"}`)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := s.Write(ctx, big); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Write: got %v, want context.DeadlineExceeded", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Write took %v to notice its context", took)
	}

	// The next frame still arrives whole: the half-written one is cut off
	// by a newline of its own.
	next := []byte(`{"next":true}`)
	go s.Write(context.Background(), next)
	for {
		frame, err := readWithin(t, s, 10*time.Second)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if bytes.Equal(frame, next) {
			break
		}
		if !bytes.HasPrefix(frame, []byte(`{"big":"xxx`)) {
			t.Fatalf("read %.40q…, want the cut-off frame or the next one", frame)
		}
	}
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
