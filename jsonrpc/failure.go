package jsonrpc

import (
	"errors"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// callFailure finds, in an error a Stream's Read returned, a failure of
// one call that leaves the stream running.
func callFailure(err error) (ID, error, bool) {
	var lost *rpcwire.ResponseLostError
	if errors.As(err, &lost) {
		return lost.ID, lost, true
	}
	var bad *rpcwire.BadResponseError
	if errors.As(err, &bad) {
		return bad.ID, bad, true
	}
	return ID{}, nil, false
}
