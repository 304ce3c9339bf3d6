package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

func TestPipeRoundTripCopiesFrames(t *testing.T) {
	checkLeaks(t)
	a, b := Pipe()
	defer a.Close()
	defer b.Close()
	frame := []byte(`{"id":1}`)
	if err := a.Write(context.Background(), frame); err != nil {
		t.Fatalf("Write: %v", err)
	}
	copy(frame, `{"id":2}`) // the caller may reuse its slice at once
	got, err := b.Read()
	if err != nil || string(got) != `{"id":1}` {
		t.Errorf("b.Read: got %s, %v; want {\"id\":1}", got, err)
	}
	if err := b.Write(context.Background(), []byte(`{"id":3}`)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if got, err := a.Read(); err != nil || string(got) != `{"id":3}` {
		t.Errorf("a.Read: got %s, %v; want {\"id\":3}", got, err)
	}
}

func TestPipeCloseDrainsThenEOF(t *testing.T) {
	checkLeaks(t)
	a, b := Pipe()
	for i := range 3 {
		if err := a.Write(context.Background(), []byte(fmt.Sprint(i))); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	a.Close()
	a.Close() // idempotent
	for i := range 3 {
		got, err := b.Read()
		if err != nil || string(got) != fmt.Sprint(i) {
			t.Fatalf("b.Read #%d: got %s, %v; want %d", i, got, err, i)
		}
	}
	if _, err := b.Read(); err != io.EOF {
		t.Errorf("b.Read after the queue: got %v, want io.EOF", err)
	}
	if _, err := a.Read(); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("a.Read after a.Close: got %v, want ErrClosed", err)
	}
	if err := a.Write(context.Background(), []byte(`{}`)); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("a.Write after a.Close: got %v, want ErrClosed", err)
	}
	if err := b.Write(context.Background(), []byte(`{}`)); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("b.Write after a.Close: got %v, want io.ErrClosedPipe", err)
	}
	b.Close()
}

func TestPipeWriteHonoursContextWhenFull(t *testing.T) {
	checkLeaks(t)
	a, b := Pipe()
	defer a.Close()
	defer b.Close()
	for range pipeBuffer {
		if err := a.Write(context.Background(), []byte(`{}`)); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := a.Write(ctx, []byte(`{}`)); err != context.DeadlineExceeded {
		t.Errorf("Write to a full pipe: got %v, want context.DeadlineExceeded", err)
	}
	// A cancelled context fails the write even when there is room.
	b.Read()
	if err := a.Write(ctx, []byte(`{}`)); err != context.DeadlineExceeded {
		t.Errorf("Write with an ended context: got %v, want context.DeadlineExceeded", err)
	}
}

func TestPipeConcurrentWriters(t *testing.T) {
	checkLeaks(t)
	a, b := Pipe()
	defer b.Close()
	const writers, each = 8, 100
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := a.Write(context.Background(), []byte(fmt.Sprintf(`{"w":%d,"i":%d}`, w, i))); err != nil {
					t.Errorf("Write: %v", err)
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		a.Close()
	}()
	seen := make(map[string]bool)
	for {
		frame, err := b.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		seen[string(frame)] = true
	}
	if len(seen) != writers*each {
		t.Errorf("got %d distinct frames, want %d", len(seen), writers*each)
	}
}
