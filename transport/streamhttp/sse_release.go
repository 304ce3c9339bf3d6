package streamhttp

import (
	"bufio"
	"io"
	"sync"

	"github.com/plainmcp/plainmcp/transport"
)

// An sseReader's buffers come from a pool and go back to it once the
// reader is released — but not under a Next still running on another
// goroutine: the busy and released bits of its state decide who frees.

// release gives the reader's read buffer back to the pool. It is
// idempotent and safe from any goroutine: if Next is running, the buffer
// goes back when Next returns. Afterwards Next and NextBytes return an
// error and read nothing; LastEventID and Retry still answer.
func (r *sseReader) release() {
	if r.state.Or(sseReleased)&(sseBusy|sseReleased) == 0 {
		r.free()
	}
}

// enter marks the reader busy, unless it was released.
func (r *sseReader) enter() bool {
	if r.state.Or(sseBusy)&sseReleased != 0 {
		r.state.And(^int32(sseBusy)) // release has freed, or will not wait for us
		return false
	}
	return true
}

// exit ends what enter began, and frees the buffer if release was called
// meanwhile.
func (r *sseReader) exit() {
	if r.state.And(^int32(sseBusy))&sseReleased != 0 {
		r.free()
	}
}

func (r *sseReader) free() {
	br := r.br
	r.br, r.data, r.field, r.parts = nil, nil, nil, nil
	if br != nil {
		br.Reset(nil) // drop the body
		sseBufs.Put(br)
	}
}

// sseReaders recycles the readers of streams that one goroutine reads
// from start to end (the answers to POSTs, the GET stream): no other
// goroutine can release such a reader, so it may be used again once its
// stream is done with.
var sseReaders = sync.Pool{New: func() any { return new(sseReader) }}

// getSSEReader is newSSEReader, with a recycled reader, which notes
// whether r said it was at its end (atEnd).
func getSSEReader(r io.Reader, maxEvent int) *sseReader {
	sr := sseReaders.Get().(*sseReader)
	sr.src = eofReader{r: r}
	br := sseBufs.Get().(*bufio.Reader)
	br.Reset(&sr.src)
	sr.br, sr.max = br, orDefault(maxEvent, transport.DefaultMaxLine)
	return sr
}

// putSSEReader releases a reader from getSSEReader and recycles it, with
// its data buffer if that is no larger than keepBuf: the next stream's
// events are then assembled without growing one from nothing (what the
// caller got of an event is its own, a copy or a buffer handed over). The
// caller must be its only user, and must not use it afterwards.
func putSSEReader(r *sseReader) {
	data := r.data[:0]
	if cap(data) > keepBuf {
		data = nil
	}
	r.release()
	*r = sseReader{data: data}
	sseReaders.Put(r)
}

// atEnd reports whether the stream is read to its end: nothing is left
// in the buffer, and the body said it had no more. (An HTTP body says so
// with its last bytes when the end came with them.) Only a reader from
// getSSEReader knows.
func (r *sseReader) atEnd() bool { return r.br != nil && r.br.Buffered() == 0 && r.src.eof }

// eofReader reads r and remembers whether r said it was at its end: an
// HTTP body says so with its last bytes when the end came with them, and
// a stream that ended with its response needs no more reads.
type eofReader struct {
	r   io.Reader
	eof bool
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		e.eof = true
	}
	return n, err
}
