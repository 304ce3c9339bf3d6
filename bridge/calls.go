package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// callTools decides and makes one turn's tool calls, and returns a
// tool_result for each, in the order of uses. Consent is asked first, one
// call at a time, in order; then the calls that may run go to at most
// MaxConcurrentCalls goroutines, which is all the concurrency a turn has,
// however many calls the model asked for.
func (o *RunOptions) callTools(ctx context.Context, reg *toolreg.Registry, offered []toolreg.Tool, uses []mcpclient.Content) []mcpclient.Content {
	byName := make(map[string]*toolreg.Tool, len(offered))
	for i := range offered {
		byName[offered[i].Name] = &offered[i]
	}
	results := make([]mcpclient.Content, len(uses))
	var run []int
	for i, u := range uses {
		if why := o.decide(ctx, byName, i, u); why != "" {
			results[i] = refusal(u.ID, why)
			continue
		}
		run = append(run, i)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(len(run), o.MaxConcurrentCalls) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res, err := o.call(ctx, reg, byName[uses[i].Name], json.RawMessage(objectOrEmpty(uses[i].Input)))
				results[i] = toolResult(uses[i].ID, res, err, o.MaxResultBytes)
			}
		}()
	}
	for _, i := range run {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// call makes one call of an offered tool, and once more if it failed and
// Retry says so.
func (o *RunOptions) call(ctx context.Context, reg *toolreg.Registry, t *toolreg.Tool, args json.RawMessage) (*toolreg.Result, error) {
	res, err := reg.Call(ctx, t.Name, args)
	if err == nil || o.Retry == nil || ctx.Err() != nil {
		return res, err
	}
	call := toolreg.Call{Name: t.Name, Server: t.Server, Tool: t.Def.Name, Args: args, Annotations: t.Def.Annotations}
	if !retry(ctx, o.Retry, call, err) {
		return res, err
	}
	return reg.Call(ctx, t.Name, args)
}

// retry asks the host's Retry, a panic counting as no.
func retry(ctx context.Context, f func(context.Context, toolreg.Call, error) bool, call toolreg.Call, err error) (again bool) {
	defer func() {
		if recover() != nil {
			again = false
		}
	}()
	return f(ctx, call, err)
}

// decide says why the i-th call of a turn may not run, or "" if it may.
func (o *RunOptions) decide(ctx context.Context, byName map[string]*toolreg.Tool, i int, u mcpclient.Content) string {
	if err := ctx.Err(); err != nil {
		return "not run: " + err.Error()
	}
	if i >= o.MaxCallsPerTurn {
		return fmt.Sprintf("not run: at most %d tool calls of one turn run, and this was call %d; "+
			"ask again for the calls still needed, a few at a time", o.MaxCallsPerTurn, i+1)
	}
	t := byName[u.Name]
	if t == nil || t.Def == nil {
		return fmt.Sprintf("not run: %q was not offered to the model", u.Name)
	}
	if readOnly(t.Def) && o.TrustAnnotations != nil && o.TrustAnnotations(t.Server) {
		return "" // a hint the host chose to trust, from this server
	}
	if o.Approve == nil {
		return fmt.Sprintf("not run: %s needs consent, and this host approves no call", u.Name)
	}
	// The annotations too, as toolreg gives its approver: one approver
	// may serve both, and should see the same Call from each.
	call := toolreg.Call{Name: t.Name, Server: t.Server, Tool: t.Def.Name, Args: json.RawMessage(objectOrEmpty(u.Input)), Annotations: t.Def.Annotations}
	if err := approve(ctx, o.Approve, call); err != nil {
		return fmt.Sprintf("not run: the call was not approved: %v", err)
	}
	return ""
}

// approve asks the approver, a panic counting as a refusal.
func approve(ctx context.Context, f func(context.Context, toolreg.Call) error, call toolreg.Call) (err error) {
	defer func() {
		if recover() != nil {
			err = errors.New("the approver failed")
		}
	}()
	return f(ctx, call)
}

// readOnly reports whether a tool's server marks it read-only and not
// destructive. This is the server's hint, not a fact (see
// RunOptions.Approve).
func readOnly(t *mcpclient.Tool) bool {
	a := t.Annotations
	return a != nil && a.ReadOnlyHint != nil && *a.ReadOnlyHint && (a.DestructiveHint == nil || !*a.DestructiveHint)
}
