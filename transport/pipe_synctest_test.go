//go:build go1.25

package transport

import (
	"context"
	"errors"
	"io"
	"testing"
	"testing/synctest"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

func TestPipeCloseUnblocks(t *testing.T) {
	checkLeaks(t)
	synctest.Test(t, pipeCloseUnblocks)
}

// pipeCloseUnblocks runs in a bubble: synctest.Wait returns once the
// reader or writer is blocked for good, so Close meets a blocked call,
// not one that has yet to start.
func pipeCloseUnblocks(t *testing.T) {
	// result runs f and returns its error, failing if it takes too long.
	result := func(f func() error) <-chan error {
		c := make(chan error, 1)
		go func() { c <- f() }()
		return c
	}
	wait := func(what string, c <-chan error, want error) {
		t.Helper()
		select {
		case err := <-c:
			if !errors.Is(err, want) {
				t.Errorf("%s: got %v, want %v", what, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("Close did not unblock %s", what)
		}
	}
	read := func(e jsonrpc.Stream) func() error { return func() error { _, err := e.Read(); return err } }
	fill := func(e jsonrpc.Stream) func() error {
		return func() error {
			for {
				if err := e.Write(context.Background(), []byte(`{}`)); err != nil {
					return err
				}
			}
		}
	}

	a, b := Pipe()
	aRead, bRead := result(read(a)), result(read(b))
	synctest.Wait()
	a.Close()
	wait("a.Read", aRead, jsonrpc.ErrClosed)
	wait("b.Read", bRead, io.EOF)
	b.Close()

	a, b = Pipe()
	aWrite := result(fill(a))
	synctest.Wait()
	a.Close()
	wait("a.Write", aWrite, jsonrpc.ErrClosed)
	b.Close()

	a, b = Pipe()
	aWrite = result(fill(a))
	synctest.Wait()
	b.Close()
	wait("a.Write to a closed peer", aWrite, io.ErrClosedPipe)
	a.Close()
}
