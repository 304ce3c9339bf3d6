package rpcwire

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

// ErrBadResponse is matched (errors.Is) by the error of a call whose
// response came but could not be used: see BadResponseError.
var ErrBadResponse = errors.New("jsonrpc: bad response")

// BadResponseError ends one call at once because its answer came and is
// unusable: a response frame that cannot be decoded but names the call's
// id, an HTTP answer carrying another request's response, an empty answer
// where a response was due. The request may have run; unlike a lost
// response, nothing better will come, so it is final. A Stream returns it
// from Read, as it does a ResponseLostError; the Conn makes it itself for
// undecodable response frames.
type BadResponseError struct {
	ID     ID
	Reason string
}

func (e *BadResponseError) Error() string {
	return fmt.Sprintf("jsonrpc: bad response to request %s: %s", e.ID, e.Reason)
}

// Is makes errors.Is(err, ErrBadResponse) true.
func (e *BadResponseError) Is(target error) bool { return target == ErrBadResponse }
