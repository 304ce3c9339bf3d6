package mcpclient

import (
	"encoding/json"
	"testing"
	"unsafe"
)

// TestRequestGrowsStackFirst checks that a request made on a new
// goroutine grows its stack while building the request, not deep in the
// call: after newRequest, 4 KiB more stack (more than encoding/json takes
// to decode a small tool result) does not move it. Without growStack a
// new goroutine starts with 2 KiB (params given as JSON need no encoding,
// which would grow it too), and the stack moves.
func TestRequestGrowsStackFirst(t *testing.T) {
	moved := make(chan bool)
	go func() {
		var here byte
		r, err := newRequest(methodToolsCall, json.RawMessage(`{"name":"echo"}`), true)
		if err != nil {
			t.Error(err)
			moved <- false
			return
		}
		defer r.release()
		before := uintptr(unsafe.Pointer(&here))
		useStack(16) // 16 frames of more than 256 B
		moved <- uintptr(unsafe.Pointer(&here)) != before
	}()
	if <-moved {
		t.Error("the goroutine's stack moved after newRequest: it was not grown up front")
	}
}

// useStack takes more than depth × 256 bytes of stack.
//
//go:noinline
func useStack(depth int) byte {
	var pad [256]byte
	pad[depth%len(pad)] = byte(depth)
	if depth == 0 {
		return pad[0]
	}
	return useStack(depth-1) + pad[depth%len(pad)]
}
