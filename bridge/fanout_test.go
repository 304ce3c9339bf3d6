package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/toolreg"
)

// A model turn of as many tool calls as an answer may hold (more is a
// malformed answer, see TestAnswerListBounds): a few run, never more than
// the bound at once, on a bounded number of goroutines, the approver one
// call at a time; the model reads why the rest did not run.
func TestManyCallsInOneTurn(t *testing.T) {
	leakcheck.Check(t)
	const n = maxStreamedCalls
	baseline := runtime.NumGoroutine()
	var maxGoroutines atomic.Int64
	reg, srv := newFakeServer(t, &toolreg.Options{}, fakeTool{def: toolDef("note", ""), call: func(context.Context, json.RawMessage) string {
		g := int64(runtime.NumGoroutine())
		for m := maxGoroutines.Load(); g > m && !maxGoroutines.CompareAndSwap(m, g); m = maxGoroutines.Load() {
		}
		runtime.Gosched()
		return textResult("noted")
	}})
	var calls []string
	for i := range n {
		calls = append(calls, fmt.Sprintf(`{"id":"c%d","type":"function","function":{"name":"mcp__fake__note","arguments":"{}"}}`, i))
	}
	var second []byte
	var requests atomic.Int64
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if requests.Add(1) == 1 {
			io.WriteString(w, `{"model":"m","choices":[{"message":{"tool_calls":[`+strings.Join(calls, ",")+`]},"finish_reason":"tool_calls"}]}`)
			return
		}
		second = body
		io.WriteString(w, `{"model":"m","choices":[{"message":{"content":"done"},"finish_reason":"stop"}]}`)
	}))
	defer provider.Close()
	var approving, maxApproving, approvals atomic.Int64
	opts := &RunOptions{MaxCallsPerTurn: 40, MaxConcurrentCalls: 3, Approve: func(context.Context, toolreg.Call) error {
		a := approving.Add(1)
		defer approving.Add(-1)
		approvals.Add(1)
		for m := maxApproving.Load(); a > m && !maxApproving.CompareAndSwap(m, a); m = maxApproving.Load() {
		}
		return nil
	}}
	tr, err := Run(context.Background(), &OpenAI{BaseURL: provider.URL, Model: "m"}, reg, "Note everything", opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.calls.Load(); got != 40 {
		t.Errorf("%d calls reached the server, want 40", got)
	}
	if got := srv.maxIn.Load(); got > 3 || got < 1 {
		t.Errorf("at most %d calls were in flight, want 1 to 3", got)
	}
	if got := maxApproving.Load(); got != 1 || approvals.Load() != 40 {
		t.Errorf("the approver was entered %d times, at most %d at once; want 40, one at a time", approvals.Load(), got)
	}
	if got := maxGoroutines.Load() - int64(baseline); got > 60 {
		t.Errorf("%d goroutines above the baseline during the calls, want a bounded few", got)
	}
	results := tr.Messages[2].Content
	refused := 0
	for _, r := range results {
		if r.IsError && strings.Contains(r.Content[0].Text, "at most 40 tool calls of one turn run") {
			refused++
		}
	}
	if len(results) != n || refused != n-40 {
		t.Errorf("got %d results, %d refused; want %d, %d refused", len(results), refused, n, n-40)
	}
	if got := strings.Count(string(second), `"role":"tool"`); got != n {
		t.Errorf("the model read %d tool results, want one per call (%d)", got, n)
	}
}

// The defaults bound a turn even when the host sets nothing.
func TestDefaultBounds(t *testing.T) {
	o := (*RunOptions)(nil).withDefaults()
	if o.MaxCallsPerTurn != defaultMaxCallsPerTurn || o.MaxConcurrentCalls != defaultMaxConcurrentCalls || o.MaxResultBytes != defaultMaxResultBytes {
		t.Errorf("defaults: %d calls a turn, %d at once, %d bytes a result", o.MaxCallsPerTurn, o.MaxConcurrentCalls, o.MaxResultBytes)
	}
}
