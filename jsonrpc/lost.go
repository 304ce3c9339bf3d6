package jsonrpc

import (
	"errors"
	"fmt"
)

// ErrResponseLost is matched (errors.Is) by the error of a call whose
// response its stream reported lost: see ResponseLostError.
var ErrResponseLost = errors.New("jsonrpc: response lost")

// ResponseLostError is how a Stream says that the response to one request
// will never arrive, although the stream as a whole lives on: an HTTP
// transport whose response stream for that request broke, say. The stream
// returns it from Read (wrapped or not); the Conn then fails the call with
// that ID with it and goes on reading. It travels beside the frames, never
// in one, so no message from the peer can forge it, and a peer's own error
// codes keep their meaning.
//
// Whether the request ran is unknown. Sending it again is the protocol
// layer's decision.
type ResponseLostError struct {
	ID     ID
	Reason string
}

func (e *ResponseLostError) Error() string {
	return fmt.Sprintf("jsonrpc: the response to request %s was lost: %s", e.ID, e.Reason)
}

// Is makes errors.Is(err, ErrResponseLost) true.
func (e *ResponseLostError) Is(target error) bool { return target == ErrResponseLost }
