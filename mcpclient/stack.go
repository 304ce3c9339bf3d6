package mcpclient

// A request needs about 5 KiB of goroutine stack: encoding/json alone
// takes 3.5 KiB to decode a small tool result, and the path from CallTool
// to the write takes about 3 KiB. A goroutine started for the call (how a
// host runs tool calls in parallel) starts with 2 or 4 KiB, as the
// runtime guesses from the stacks it has seen, and grows its stack where
// it first runs out: 15 to 20 frames deep, in the frame encoder or the
// select that waits for the response, where the runtime copies every
// frame and re-points each pointer into the stack. That was a quarter of
// the client's CPU in BenchmarkEra/inflight256, about 3 µs per call.
// growStack makes the stack big enough at the start of the request, while
// it holds a few frames: the same growth at a fraction of the cost.
// newRequest calls it, and StartTool too, first thing: the pool and the
// arguments' check on its way to newRequest grew the stack already when
// it started with 2 KiB (a second growth, up to 0.4 µs more per call). On a
// stack already that big it costs a call.

// stackPad is how much stack growStack asks for below its caller: with
// the frames above it, enough for a request's deepest path.
const stackPad = 4 << 10

// growStack makes the goroutine's stack hold at least stackPad bytes more
// than it holds now: the runtime checks that a function's whole frame
// fits before it runs, and grows the stack if not.
//
//go:noinline
func growStack() byte {
	if keepPad {
		var pad [stackPad]byte
		return touchPad(&pad)
	}
	return 0
}

// keepPad is never set. Its branch keeps the pad in growStack's frame
// without clearing it on every call, which cost 0.3 µs per call in
// BenchmarkEra/inflight256 (the pad is fresh memory each time).
var keepPad bool

// touchPad keeps the compiler from dropping growStack's pad.
//
//go:noinline
func touchPad(pad *[stackPad]byte) byte { return pad[0] }
