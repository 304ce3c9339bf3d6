package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// A call is bounded three ways, and its error says which bound ended it
// and what changes that bound:
//
//   - --timeout: the longest a request goes with neither its answer nor
//     progress (the library's default: 60s, tool calls 10 minutes); each
//     progress update restarts it, and mcpc asks for progress on every
//     call (shown only with --progress) so that a server can say it is
//     alive;
//   - --total-timeout: the cap on a request that keeps reporting progress
//     (default 30 minutes);
//   - MCP_TOOL_TIMEOUT, or a server's "toolTimeout": a tool call's whole
//     time, progress or not, as Claude Code reads them.

// timeoutHint adds to a call's timeout error the flag or variable that
// changes the bound that fired; other errors pass as they are.
func timeoutHint(err error) error {
	var te *mcpclient.TimeoutError
	switch {
	case err == nil || !errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.As(err, &te) && te.Capped:
		return fmt.Errorf("%w (the cap on a call that keeps reporting progress; raise it with --total-timeout)", err)
	case errors.As(err, &te):
		return fmt.Errorf("%w (raise the bound with --timeout)", err)
	}
	return fmt.Errorf(`%w (the tool call's time limit, progress or not: MCP_TOOL_TIMEOUT, or the server's "toolTimeout" in its config)`, err)
}

// askProgress asks for progress on ctx's calls without showing it: each
// update tells the timeout the tool is alive.
func askProgress(ctx context.Context) context.Context {
	return mcpclient.WithProgress(ctx, func(mcpclient.Progress) {})
}
