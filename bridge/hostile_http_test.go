package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/secret"
)

// The conversation a hostile provider would like to see elsewhere.
const plantedSecret = "the launch code is 0000"

func secretQuestion() *mcpclient.CreateMessageParams {
	return &mcpclient.CreateMessageParams{MaxTokens: 5, Messages: []mcpclient.SamplingMessage{
		{Role: "user", Content: mcpclient.ContentList{{Type: "text", Text: plantedSecret}}}}}
}

// bothAdapters runs f once with each adapter, pointed at the fake.
func bothAdapters(t *testing.T, f func(t *testing.T, model func(*fakeProvider) Model)) {
	t.Run("openai", func(t *testing.T) { f(t, func(p *fakeProvider) Model { return newOpenAI(p) }) })
	t.Run("anthropic", func(t *testing.T) { f(t, func(p *fakeProvider) Model { return newAnthropic(p) }) })
}

// A provider that redirects to another origin gets an error, and the
// other origin gets nothing: not the key, not the conversation. (Go's
// client drops Authorization on such a redirect but not x-api-key, and
// a 307 re-sends the body.)
func TestRedirectToAnotherOriginIsAnError(t *testing.T) {
	bothAdapters(t, func(t *testing.T, model func(*fakeProvider) Model) {
		elsewhere := newFake(t, answerBoth())
		provider := newFake(t, reply{status: http.StatusTemporaryRedirect,
			header: map[string]string{"Location": elsewhere.URL + "/v1/messages?k=" + testKey}})
		_, err := model(provider).CreateMessage(context.Background(), secretQuestion())
		if !errors.Is(err, ErrRedirected) {
			t.Fatalf("got %v, want ErrRedirected", err)
		}
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) {
			t.Errorf("got %T, want a *jsonrpc.Error for the server that asked", err)
		}
		if n := len(elsewhere.requests()); n != 0 {
			t.Errorf("the other origin got %d requests, want none", n)
		}
		if n := len(provider.requests()); n != 1 {
			t.Errorf("the provider got %d requests, want 1: a refused redirect is not retried", n)
		}
		if strings.Contains(err.Error(), testKey) || strings.Contains(err.Error(), "/v1/messages") {
			t.Errorf("the error quotes the redirect's path or key: %v", err)
		}
	})
}

// A redirect within the provider's origin is followed.
func TestRedirectWithinTheOriginIsFollowed(t *testing.T) {
	bothAdapters(t, func(t *testing.T, model func(*fakeProvider) Model) {
		var provider *fakeProvider
		provider = newFake(t, reply{status: http.StatusTemporaryRedirect, header: map[string]string{"Location": "/moved"}}, answerBoth())
		res, err := model(provider).CreateMessage(context.Background(), secretQuestion())
		if err != nil {
			t.Fatal(err)
		}
		if reqs := provider.requests(); len(reqs) != 2 || reqs[1].path != "/moved" || res.Content[0].Text != "ok" {
			t.Errorf("got %d requests (%v), answer %q; want the redirect followed to /moved", len(reqs), reqs, res.Content[0].Text)
		}
	})
}

// answerBoth is a body both adapters read as the answer "ok".
func answerBoth() reply {
	return reply{body: `{"type":"message","model":"m","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn",
		"choices":[{"message":{"content":"ok"},"finish_reason":"stop"}]}`}
}

// A 5xx body that is not the provider's JSON (a proxy's page, a stack
// trace) is the only clue: it is quoted in the error, with the planted
// key cut out, control characters dropped and its length bounded.
func TestProviderErrorBodyQuotedRedactedBounded(t *testing.T) {
	body := "upstream crashed\x1b[2J\x1b]0;pwned\x07 while using key " + testKey + "\n" + strings.Repeat("trace line\n", 100_000)
	bothAdapters(t, func(t *testing.T, model func(*fakeProvider) Model) {
		inBubble(t, func(t *testing.T) { // the 502 is retried twice
			testErrorBodyQuoted(t, model(newMemFake(reply{status: http.StatusBadGateway, header: map[string]string{"Content-Type": "text/plain"}, body: body})))
		})
	})
}

// testErrorBodyQuoted asks m, whose provider answers 502 with a hostile
// body, and checks the error it gets.
func testErrorBodyQuoted(t *testing.T, m Model) {
	_, err := m.CreateMessage(context.Background(), secretQuestion())
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		t.Fatalf("got %v, want a *jsonrpc.Error", err)
	}
	msg := rpcErr.Message
	if !strings.Contains(msg, "HTTP 502") || !strings.Contains(msg, `"upstream crashed`) || !strings.Contains(msg, secret.Placeholder) {
		t.Errorf("got %q, want the status and the body quoted, the key marked as cut", msg)
	}
	if strings.Contains(msg, testKey) || strings.Contains(string(rpcErr.Data), testKey) {
		t.Errorf("the error carries the key: %q", msg)
	}
	if strings.ContainsAny(msg, "\x1b\x07\n") {
		t.Errorf("the error carries control characters: %q", msg)
	}
	if len(msg) > maxErrorText+100 {
		t.Errorf("the error is %d bytes, want about %d at most", len(msg), maxErrorText)
	}
}

// A key never crosses a network in clear: with a key, plain http is for
// loopback only, and nothing is sent elsewhere. Without one it goes.
func TestKeyNeverSentOverPlainHTTP(t *testing.T) {
	var sent []string
	client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		sent = append(sent, r.URL.String())
		return nil, errors.New("no network in tests")
	})}
	for _, tc := range []struct {
		base, key string
		sent      bool
	}{
		{"http://models.example/v1", testKey, false},
		{"http://10.0.0.7:8000/v1", testKey, false},
		{"http://models.example/v1", "", true},
		{"https://models.example/v1", testKey, true},
		{"http://127.0.0.1:9/v1", testKey, true},
		{"http://[::1]:9/v1", testKey, true},
		{"http://localhost:9/v1", testKey, true},
	} {
		sent = nil
		m := &OpenAI{APIKey: secret.New(tc.key), BaseURL: tc.base, Model: "m", HTTP: HTTPOptions{Client: client, MaxRetries: -1}}
		_, err := m.CreateMessage(context.Background(), secretQuestion())
		if err == nil || (len(sent) > 0) != tc.sent {
			t.Errorf("%s with key %v: sent %v, err %v; want sent=%v", tc.base, tc.key != "", sent, err, tc.sent)
		}
		if strings.Contains(err.Error(), testKey) {
			t.Errorf("%s: the error carries the key: %v", tc.base, err)
		}
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A stream that fails with an error event quotes the provider's message
// bounded, on one line, without the key; so does every error.
func TestStreamErrorEventBounded(t *testing.T) {
	// 190 KB, far past every bound on the way (maxErrorText, maxErrorMessage),
	// the key at its end.
	huge := strings.Repeat("overloaded \x1b[31m ", 10_000) + testKey
	for _, tc := range []struct {
		model func(*fakeProvider) Model
		body  string
	}{
		{func(p *fakeProvider) Model { return newOpenAI(p) }, `data: {"error":{"message":` + quoteJSON(huge) + `}}` + "\n\n"},
		{func(p *fakeProvider) Model { return newAnthropic(p) }, `data: {"type":"error","error":{"type":"x","message":` + quoteJSON(huge) + `}}` + "\n\n"},
	} {
		f := newFake(t, reply{header: sse, body: tc.body})
		ctx, _ := collect()
		_, err := tc.model(f).CreateMessage(ctx, hi())
		if err == nil || len(err.Error()) > maxErrorMessage+100 || strings.ContainsAny(err.Error(), "\x1b\n") || strings.Contains(err.Error(), testKey) {
			t.Errorf("got an error of %d bytes: %.200q…", len(fmt.Sprint(err)), fmt.Sprint(err))
		}
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A stream's error event that echoes the key where the quotation is cut
// short (maxErrorText) quotes no part of it: the start of a key is still
// the key's. The key is cut out before the message is.
func TestStreamErrorEventQuotesNoPartOfTheKey(t *testing.T) {
	for _, keep := range []int{4, 8, 12, len(testKey) - 1} {
		msg := strings.Repeat("x", maxErrorText-keep) + testKey + " and more"
		for _, tc := range []struct {
			model func(*fakeProvider) Model
			body  string
		}{
			{func(p *fakeProvider) Model { return newOpenAI(p) }, `data: {"error":{"message":` + quoteJSON(msg) + `}}` + "\n\n"},
			{func(p *fakeProvider) Model { return newAnthropic(p) }, `data: {"type":"error","error":{"type":"x","message":` + quoteJSON(msg[len("x: "):]) + `}}` + "\n\n"},
		} {
			f := newFake(t, reply{header: sse, body: tc.body})
			ctx, _ := collect()
			_, err := tc.model(f).CreateMessage(ctx, hi())
			if err == nil {
				t.Fatal("got no error")
			}
			if strings.Contains(err.Error(), testKey[:keep]) {
				t.Errorf("keeping %d: the error quotes the start of the key: …%s", keep, err.Error()[max(0, len(err.Error())-80):])
			}
		}
	}
}

// An answer that is whole ends the call at once, though the provider
// keeps the connection open after it (a chunked body never ended): the
// call must not wait out the attempt's timeout for the end of the body.
// Over a real connection: the in-memory client would wait for the
// handler.
func TestWholeAnswerEndsTheCallAtOnce(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answerBoth().body)
		w.(http.Flusher).Flush()
		select { // the body never ends
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	opts := HTTPOptions{Client: srv.Client()}
	for _, m := range []Model{
		&OpenAI{APIKey: secret.New(testKey), BaseURL: srv.URL + "/v1/", Model: "m", HTTP: opts},
		&Anthropic{APIKey: secret.New(testKey), BaseURL: srv.URL + "/", Model: "m", HTTP: opts},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		res, err := m.CreateMessage(ctx, secretQuestion())
		if ctx.Err() != nil {
			t.Errorf("%T: the call waited for the end of the body, until its deadline (%v)", m, err)
		} else if err != nil || len(res.Content) == 0 || res.Content[0].Text != "ok" {
			t.Errorf("%T: got %+v, %v; want the answer", m, res, err)
		}
		cancel()
	}
}
