package mcpclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/plainmcp/plainmcp/internal/reqinfo"
	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// request is one request as the session sends it. The method that makes
// it encodes the caller's params once; whatever happens on the way — a
// progress token, the stateless era's metadata, an input round, a version
// retry, a re-issue after a lost response, a new HTTP session — reuses
// those bytes and splices its own members in as it writes the frame.
type request struct {
	method string
	params []byte // a JSON object, or nil for none
	// metaEnd is the offset of the closing brace of params' own _meta
	// object, or -1 when params has none: our members go in there. A
	// null _meta spans params[nullMeta[0]:nullMeta[1]], replaced by ours.
	metaEnd  int
	nullMeta [2]int

	// info is what the HTTP wire mirrors into headers (Mcp-Name,
	// Mcp-Param-*), nil when there is nothing to mirror (see named).
	info     *reqinfo.Info
	infoData reqinfo.Info

	// Set per exchange by the wire, spliced in by appendParams.
	progress int64           // _meta.progressToken, 0 for none
	inputs   json.RawMessage // inputResponses of an input round
	state    json.RawMessage // requestState of an input round, verbatim

	watch *progressWatch // the call's progress and its resettable timeout, or nil
	// watchData is what watch points to: a request comes from a pool,
	// so a call that carries a token allocates no watch of its own.
	watchData progressWatch
	raw       json.RawMessage // the last result received, as it came

	// Scratch space of exchange, kept here so that a call allocates
	// nothing for it: the request itself comes from a pool.
	meta []byte // the _meta members of the exchange in flight
	env  resultEnvelope

	buf *paramsBuffer // holds params; back to the pool by release
}

// requestPool recycles requests: one is built per call, and it is large
// (it holds the progress watch). BenchmarkCallToolStdio without it: 18
// allocations and 1,729 B per echo call, not 17 and 1,216.
var requestPool = sync.Pool{New: func() any { return new(request) }}

// paramsBuffer is a pooled buffer with an encoder writing into it.
type paramsBuffer struct {
	bytes.Buffer
	enc *json.Encoder
}

// paramsPool recycles them: BenchmarkCallToolStdio without it, 20
// allocations and 1,425 B per echo call, not 17 and 1,216 (the buffer,
// its growth and the encoder).
var paramsPool = sync.Pool{New: func() any {
	b := new(paramsBuffer)
	b.enc = json.NewEncoder(&b.Buffer)
	b.enc.SetEscapeHTML(false) // an opaque string (a requestState) goes out byte for byte
	return b
}}

// newRequest encodes params for method. Params are any JSON object value:
// a struct, a map, a json.RawMessage, or nil for none. known says that
// params is one of this package's own types, which have no _meta member,
// so the encoding need not be searched for one.
//
// The request must be released when the call is done with it.
func newRequest(method string, params any, known bool) (*request, error) {
	r := requestPool.Get().(*request)
	*r = request{method: method, metaEnd: -1}
	switch p := params.(type) {
	case nil:
		return r, nil
	case json.RawMessage:
		r.params = p
	case []byte:
		r.params = p
	default:
		r.buf = paramsPool.Get().(*paramsBuffer)
		r.buf.Reset()
		if err := r.buf.enc.Encode(params); err != nil {
			r.release()
			return nil, fmt.Errorf("mcpclient: %s params: %w", method, err)
		}
		r.params = bytes.TrimSuffix(r.buf.Bytes(), []byte{'\n'})
	}
	if known {
		return r, nil
	}
	if err := r.findMeta(); err != nil {
		r.release()
		return nil, fmt.Errorf("mcpclient: %s params: %w", method, err)
	}
	return r, nil
}

// findMeta checks that params is an object and finds its _meta member.
func (r *request) findMeta() error {
	var err error
	walkErr := rpcwire.Members(r.params, func(key []byte, start, end int) bool {
		if string(key) != `"_meta"` {
			return true
		}
		v := bytes.TrimSpace(r.params[start:end])
		switch {
		case len(v) > 0 && v[0] == '{':
			r.metaEnd = end - 1
		case string(v) == "null":
			r.nullMeta = [2]int{start, end}
		default:
			err = errors.New("_meta must be an object")
		}
		return false
	})
	if walkErr != nil {
		return errors.New("params must be a JSON object")
	}
	return err
}

// release gives the request and its params buffer back: the call is done
// with them (what it kept of r.raw is the frame's, not the pool's).
func (r *request) release() {
	if r.buf != nil && r.buf.Cap() <= 1<<20 { // let very large ones go to the GC
		paramsPool.Put(r.buf)
	}
	*r = request{}
	requestPool.Put(r)
}

// named sets what the stateless HTTP wire mirrors into headers, when the
// session's stream is one that shapes messages by protocol (a stream that
// is not has no headers, and the context value would cost a call an
// allocation for nothing).
func (r *request) named(s *Session, name string, headers map[string]string) {
	if !s.shapesRequests || s.Era() != EraStateless {
		return
	}
	r.infoData = reqinfo.Info{Method: r.method, Name: name, Headers: headers}
	r.info = &r.infoData
}

// AppendJSON appends the params of the exchange in flight, making r a
// rpcwire.Appender: the connection writes them straight into the frame.
func (r *request) AppendJSON(b []byte) []byte {
	b = slices.Grow(b, len(r.params)+len(r.meta)+len(r.inputs)+len(r.state)+64)
	return r.appendParams(b, r.meta)
}

// appendParams appends the params to send: the caller's, with meta (the
// session's _meta members, comma-separated, without braces), the progress
// token, and an input round's inputResponses and requestState spliced in.
// A _meta object of the caller's gets our members after its own, so ours
// win where a key repeats.
func (r *request) appendParams(b, meta []byte) []byte {
	start := len(b)
	params := r.params
	if params == nil {
		params = []byte("{}")
	}
	switch {
	case len(meta) == 0 && r.progress == 0:
		params = bytes.TrimSpace(params)
		b = append(b, params[:len(params)-1]...)
	case r.nullMeta[1] > 0:
		b = append(b, params[:r.nullMeta[0]]...)
		b = append(b, '{')
		b = r.appendMeta(b, meta)
		b = append(b, '}')
		b = append(b, params[r.nullMeta[1]:]...)
		b = bytes.TrimRight(b, " \t\r\n")
		b = b[:len(b)-1] // the closing brace of params
	case r.metaEnd >= 0:
		b = append(b, params[:r.metaEnd]...)
		if !emptyBefore(params, r.metaEnd) {
			b = append(b, ',')
		}
		b = r.appendMeta(b, meta)
		b = append(b, params[r.metaEnd:]...)
		b = bytes.TrimRight(b, " \t\r\n")
		b = b[:len(b)-1] // the closing brace of params
	default:
		b = append(b, `{"_meta":{`...)
		b = r.appendMeta(b, meta)
		b = append(b, '}')
		params = bytes.TrimSpace(params)
		if body := params[1 : len(params)-1]; len(bytes.TrimSpace(body)) > 0 {
			b = append(b, ',')
			b = append(b, body...)
		}
	}
	open := len(bytes.TrimSpace(b[start:])) == 1 // nothing but the opening brace
	for _, m := range [...]struct {
		key string
		val json.RawMessage
	}{{"inputResponses", r.inputs}, {"requestState", r.state}} {
		if m.val == nil {
			continue
		}
		if !open {
			b = append(b, ',')
		}
		open = false
		b = append(b, '"')
		b = append(b, m.key...)
		b = append(b, `":`...)
		b = append(b, m.val...)
	}
	return append(b, '}')
}

// appendMeta appends our _meta members: the session's and the progress
// token.
func (r *request) appendMeta(b, meta []byte) []byte {
	b = append(b, meta...)
	if r.progress != 0 {
		if len(meta) > 0 {
			b = append(b, ',')
		}
		b = append(b, `"progressToken":"`...) // a string of digits
		b = strconv.AppendInt(b, r.progress, 10)
		b = append(b, '"')
	}
	return b
}

// emptyBefore reports whether the object whose closing brace is at end
// has no members: only space since its opening brace.
func emptyBefore(b []byte, end int) bool {
	i := end - 1
	for i >= 0 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i--
	}
	return i >= 0 && b[i] == '{'
}
