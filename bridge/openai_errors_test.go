package bridge

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// errorCase is what a provider answers a sampling request (a run of
// replies, one per attempt) and the error the request gets for it.
type errorCase struct {
	name     string
	replies  []reply
	code     jsonrpc.Code // the error's code; 0: any
	message  string       // a part of the error's message; "": an answer, no error
	requests int          // the attempts the provider saw
}

// checkErrors runs each case against an in-memory provider reached by
// the model newModel makes, in a synctest bubble where one is to be had,
// so that retries' waits pass at once. No error may carry the key.
func checkErrors(t *testing.T, newModel func(*fakeProvider) Model, cases []errorCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inBubble(t, func(t *testing.T) {
				f := newMemFake(tc.replies...)
				p := &mcpclient.CreateMessageParams{MaxTokens: 5,
					Messages: []mcpclient.SamplingMessage{{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: "hi"}}}}}
				_, err := Sampling(newModel(f))(context.Background(), p)
				if got := len(f.requests()); got != tc.requests {
					t.Errorf("got %d requests, want %d", got, tc.requests)
				}
				if tc.message == "" {
					if err != nil {
						t.Fatalf("got %v, want an answer", err)
					}
					return
				}
				var rpcErr *jsonrpc.Error
				if !errors.As(err, &rpcErr) {
					t.Fatalf("got %v, want a *jsonrpc.Error", err)
				}
				if (tc.code != 0 && rpcErr.Code != tc.code) || !strings.Contains(rpcErr.Message, tc.message) {
					t.Errorf("got %d %q, want %d containing %q", rpcErr.Code, rpcErr.Message, tc.code, tc.message)
				}
				if strings.Contains(rpcErr.Message, testKey) || strings.Contains(string(rpcErr.Data), testKey) {
					t.Errorf("the error carries the key: %v %s", rpcErr, rpcErr.Data)
				}
			})
		})
	}
}

func TestOpenAIErrors(t *testing.T) {
	checkErrors(t, func(f *fakeProvider) Model { return newOpenAI(f) }, []errorCase{{
		name:     "refused key",
		replies:  []reply{{status: 401, body: `{"error":{"message":"Incorrect API key provided: ` + testKey + `","type":"invalid_request_error","code":"invalid_api_key"}}`}},
		code:     jsonrpc.CodeInternalError,
		message:  "openai: the provider refused the API key (HTTP 401)",
		requests: 1,
	}, {
		name:     "bad request",
		replies:  []reply{{status: 400, body: `{"error":{"message":"Unsupported value: 'temperature'","type":"invalid_request_error"}}`}},
		code:     jsonrpc.CodeInvalidParams,
		message:  `rejected the request (HTTP 400): "Unsupported value: 'temperature'"`,
		requests: 1,
	}, {
		name:     "5xx retried then answered",
		replies:  []reply{{status: 500, body: `{"error":{"message":"boom"}}`}, {status: 503}, {body: `{"model":"m","choices":[{"message":{"content":"ok"},"finish_reason":"stop"}]}`}},
		requests: 3,
	}, {
		name:     "5xx retries bounded",
		replies:  []reply{{status: 502, body: `{"error":{"message":"bad gateway"}}`}},
		code:     jsonrpc.CodeInternalError,
		message:  `openai: HTTP 502: "bad gateway"`,
		requests: 3,
	}, {
		name:     "429 beyond the longest wait",
		replies:  []reply{{status: 429, header: map[string]string{"Retry-After": "3600"}, body: `{"error":{"message":"Rate limit reached"}}`}},
		code:     jsonrpc.CodeInternalError,
		message:  `rate limited (HTTP 429), retry after 3600s: "Rate limit reached"`,
		requests: 1,
	}, {
		name:     "malformed body",
		replies:  []reply{{body: `{"choices": [`}},
		code:     jsonrpc.CodeInternalError,
		message:  "openai: malformed response",
		requests: 1,
	}, {
		name:     "an error text that quotes the key",
		replies:  []reply{{status: 400, body: `{"error":{"message":"the key ` + testKey + ` may not use this model"}}`}},
		code:     jsonrpc.CodeInvalidParams,
		message:  `rejected the request (HTTP 400): "the key [redacted] may not use this model"`,
		requests: 1,
	}, {
		name:     "no choices",
		replies:  []reply{{body: `{"choices": []}`}},
		code:     jsonrpc.CodeInternalError,
		message:  "malformed response: no choices",
		requests: 1,
	}, {
		name:     "bad tool arguments",
		replies:  []reply{{body: `{"choices":[{"message":{"tool_calls":[{"id":"c","type":"function","function":{"name":"t","arguments":"{oops"}}]},"finish_reason":"tool_calls"}]}`}},
		code:     jsonrpc.CodeInternalError,
		message:  `tool call "t": arguments are not a JSON object`,
		requests: 1,
	}})
}
