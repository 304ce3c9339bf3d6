package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// One input-required round may ask for only so much: each input request
// may put a question in front of a person (elicitation) or cost a model
// completion (sampling). A round asking for more is refused before any
// of it reaches the host's handlers.
func TestInputRoundAsksForABoundedNumber(t *testing.T) {
	many := make([]string, maxInputsPerRound+1)
	for i := range many {
		many[i] = fmt.Sprintf(`"k%d":{"method":"elicitation/create","params":{"message":"again?"}}`, i)
	}
	f := modernServer(t)
	f.Result("tools/call", `{"resultType":"input_required","inputRequests":{`+strings.Join(many, ",")+`}}`)
	var asked atomic.Int64
	s := connect(t, f, &Options{Elicitation: func(context.Context, *ElicitParams) (*ElicitResult, error) {
		asked.Add(1)
		return &ElicitResult{Action: "decline"}, nil
	}})
	_, err := s.CallTool(ctx5s(t), "t", nil)
	if !errors.Is(err, ErrMalformedResult) {
		t.Errorf("CallTool: %v, want ErrMalformedResult", err)
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the host was asked %d times", n)
	}
}
