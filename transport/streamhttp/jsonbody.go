package streamhttp

import (
	"bytes"
	"fmt"
	"io"
	"time"
)

// A JSON answer of no declared length (a chunked body) is read up to the
// end of the JSON-RPC message it begins with, not up to the end of the
// body: an answer that is whole ends its call at once, even from a server
// that holds the body open after it. The rest of the body, normally just
// the end of the chunked encoding, is then given a moment (tailWait) to
// come, so that the connection can serve the next request.

// tailWait bounds the wait for a body's end after its message is whole.
// A server's final chunk usually follows at once, but on a busy machine
// may take a few milliseconds; before this bound, a call waited for the
// body's end however long it took.
const tailWait = 20 * time.Millisecond

// readValue reads body, up to limit bytes, until the JSON object or array
// it begins with is whole or the body ends, and closes it.
func readValue(body io.ReadCloser, limit int) ([]byte, error) {
	v := &valueReader{r: io.LimitReader(body, int64(limit)+1)}
	b, err := io.ReadAll(v)
	switch {
	case err != nil:
		body.Close()
		return nil, err
	case len(b) > limit:
		body.Close()
		return nil, fmt.Errorf("message larger than %d bytes", limit)
	case v.cut:
		closeAfterTail(body)
	default:
		body.Close()
	}
	return b, nil
}

// valueReader reads r up to the end of the JSON value it begins with: it
// ends there (io.EOF) though r goes on, and says so (cut).
type valueReader struct {
	r   io.Reader
	end valueEnd
	cut bool
}

func (v *valueReader) Read(p []byte) (int, error) {
	if v.cut {
		return 0, io.EOF
	}
	n, err := v.r.Read(p)
	if v.end.scan(p[:n]) && err == nil {
		v.cut, err = true, io.EOF
	}
	return n, err
}

// closeAfterTail reads what is left of body for at most tailWait, then
// closes it: a body that ends in time leaves its connection reusable.
func closeAfterTail(body io.ReadCloser) {
	t := time.AfterFunc(tailWait, func() { body.Close() })
	io.Copy(io.Discard, io.LimitReader(body, drainLimit))
	t.Stop()
	body.Close()
}

// valueEnd follows a JSON text as it comes, a piece at a time, to the end
// of the object or array it begins with. It tracks only nesting and
// strings (the message is decoded, and checked, later), and looks at the
// bytes of a string only where a quote is: a tool's result is mostly
// string, read at the speed of bytes.IndexByte.
type valueEnd struct {
	depth          int
	started, whole bool
	other          bool // it begins with something else: read to the end
	inString       bool
	escaped        bool // the piece before ended in an odd run of backslashes
}

// scan takes the next piece and reports whether the value is whole.
func (v *valueEnd) scan(p []byte) bool {
	for len(p) > 0 && !v.whole && !v.other {
		switch {
		case v.inString:
			p = v.inside(p)
		case !v.started:
			p = bytes.TrimLeft(p, " \t\r\n")
			if len(p) > 0 && p[0] != '{' && p[0] != '[' {
				v.other = true
			}
			v.started = len(p) > 0
		default:
			i := bytes.IndexAny(p, `"{}[]`)
			if i < 0 {
				return false
			}
			switch p[i] {
			case '"':
				v.inString = true
			case '{', '[':
				v.depth++
			default:
				v.depth--
				v.whole = v.depth == 0
			}
			p = p[i+1:]
		}
	}
	return v.whole
}

// inside reads p within a string: up to its closing quote, whose rest it
// returns, or all of it.
func (v *valueEnd) inside(p []byte) []byte {
	for from := 0; ; {
		i := bytes.IndexByte(p[from:], '"')
		if i < 0 {
			v.escaped = oddRun(p, len(p), v.escaped)
			return nil
		}
		i += from
		if !oddRun(p, i, v.escaped) {
			v.inString, v.escaped = false, false
			return p[i+1:]
		}
		from = i + 1 // an escaped quote
	}
}

// oddRun reports whether the run of backslashes that ends before p[i] is
// odd; a run that reaches the start of p continues the one before it,
// odd if carried.
func oddRun(p []byte, i int, carried bool) bool {
	n := 0
	for n < i && p[i-1-n] == '\\' {
		n++
	}
	if n == i {
		return carried != (n%2 == 1)
	}
	return n%2 == 1
}
