package streamhttp

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
	"github.com/plainmcp/plainmcp/jsonrpc"
)

// The answer to a request's POST is a JSON body or an event stream
// (mediaType). A JSON answer is read within the message limit (readAnswer;
// jsonbody.go for a body of unknown length) and must be the response to
// the request that POST carried (jsonAnswer).

func mediaType(resp *http.Response) string {
	ct := resp.Header.Get("Content-Type")
	switch ct {
	case "application/json", "text/event-stream": // as nearly every server sends them
		return ct
	}
	t, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ""
	}
	return t
}

// readAnswer reads the body of an answer, of at most limit bytes, and
// closes it. A body of known length is read into a buffer of its size at
// once; one of unknown length grows as it comes, up to the end of the
// message it holds (readValue).
func readAnswer(resp *http.Response, limit int) ([]byte, error) {
	n := resp.ContentLength
	if n < 0 {
		return readValue(resp.Body, limit)
	}
	defer resp.Body.Close()
	if n > int64(limit) {
		return nil, fmt.Errorf("message of %d bytes, larger than %d", n, limit)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(resp.Body, b); err != nil {
		return nil, err
	}
	return b, nil
}

// jsonAnswer sees to the JSON answer to request id: the answer to a POST
// must be the response to the request that POST carried. A batch
// (2025-03-26) must hold that response, and goes to Read whole. A single
// message is returned as it is when direct is set, for the Conn to check
// on the calling goroutine; otherwise it is checked here and goes to Read.
// The error is the failure of the call.
func (h *streamable) jsonAnswer(id jsonrpc.ID, body []byte, direct bool) ([]byte, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return nil, h.unusable(id, "the server answered with an empty body")
	}
	if trimmed[0] == '[' {
		msgs, _, err := rpcwire.DecodeBatch(trimmed)
		for _, r := range msgs {
			if err == nil && r != nil && r.IsResponse() && r.ID == id {
				h.deliver(trimmed)
				return nil, nil
			}
		}
		return nil, h.unusable(id, "the batch the server answered with holds no response to it")
	}
	if direct {
		return body, nil
	}
	r, err := rpcwire.Decode(trimmed)
	switch {
	case err != nil:
		return nil, h.unusable(id, fmt.Sprintf("the answer is no JSON-RPC message: %v", err))
	case !r.IsResponse():
		return nil, h.unusable(id, fmt.Sprintf("the answer is a %s message, not a response", r.Method))
	case r.ID != id:
		return nil, h.unusable(id, fmt.Sprintf("the answer is the response to another request (id %s)", r.ID))
	}
	h.deliver(trimmed)
	return nil, nil
}
