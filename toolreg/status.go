package toolreg

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/internal/errtype"

	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/transport"
)

// ServerStatus is what Servers reports of one server. Title and
// Instructions come from the server: data, never instructions to follow.
type ServerStatus struct {
	Name            string
	State           string // StateConnected, StateFailed, StateNeedsAuth, StateReconnecting, StateDisabled, StateUnapproved, StateIdle
	Err             error  // the last error, for failed, reconnecting and needs-auth servers (a *NeedsAuthError)
	Tools           int    // tools in the last listing (after filtering)
	Prompts         int    // prompts in the last listing
	Resources       int    // resources in the last listing
	ListErr         error  // why the last tools/list failed, or stopped early (ErrPagination), if it did
	Transport       string // stdio, http, sse
	ProtocolVersion string
	Title           string
	Instructions    string
	Source          string // the config file
	Scope           string // its Claude Code scope (mcpjson.ScopeUser, …), if any
	Approval        string // for a project server, mcpjson.Approved, Pending or Rejected
	// AuthServer is, for a server in StateNeedsAuth, the origin of its
	// authorization server when discovery found it.
	AuthServer string

	ConnectedAt time.Time // when the current (or last) session opened
	Retries     int       // failed connection attempts in a row
	NextRetry   time.Time // when a failed or reconnecting server may be tried again
	// Renamed are the server's tools whose exposed name is not their
	// plain qualified one (a collision, a host-reserved name), as the last
	// naming found them.
	Renamed []Rename
}

// Servers reports every configured server, in config order.
func (r *Registry) Servers() []ServerStatus {
	var out []ServerStatus
	for _, s := range r.snapshot() {
		out = append(out, s.status())
	}
	r.mu.Lock()
	names := r.names
	r.mu.Unlock()
	for _, rn := range names.Renames() {
		for i := range out {
			if out[i].Name == rn.Ref.Server {
				out[i].Renamed = append(out[i].Renamed, rn)
			}
		}
	}
	return out
}

// Session returns the named server's session, reconnecting a dead one
// when its backoff has passed, for what the registry does not wrap
// (completion, subscriptions, log levels, ping). The registry owns it: do
// not Close it.
func (r *Registry) Session(ctx context.Context, name string) (*mcpclient.Session, error) {
	r.mu.Lock()
	s := r.servers[name]
	r.mu.Unlock()
	if s == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	return s.live(ctx)
}

// status reports the server, taking its lock.
func (s *server) status() ServerStatus {
	s.mu.Lock()
	st := ServerStatus{Name: s.cfg.Name, State: s.state, Err: s.lastErr, Tools: len(s.tools.items), ListErr: s.tools.err,
		Prompts: len(s.prompts.items), Resources: len(s.resources.items),
		Transport: s.transport, Source: s.cfg.Source, Scope: s.cfg.Scope, Approval: s.cfg.Approval,
		ConnectedAt: s.connectedAt, Retries: s.failures}
	if s.state != StateConnected && s.failures > 0 {
		st.NextRetry = s.nextTry
	}
	if need := (*NeedsAuthError)(nil); s.state == StateNeedsAuth && errtype.As(s.lastErr, &need) {
		st.AuthServer = need.AuthServer
	}
	session := s.session
	s.mu.Unlock()
	if session != nil && st.State == StateConnected {
		info := session.ServerInfo()
		st.ProtocolVersion, st.Title, st.Instructions = session.ProtocolVersion(), info.Title, session.Instructions()
	}
	return st
}

// stateError says in one sentence why a server cannot take a request —
// it exited, it did not answer in time, it is disabled — rather than which
// protocol request was on the wire when that happened. It matches kind
// (ErrUnavailable, ErrDisabled, ErrUnapproved), and its cause stays
// reachable (errors.As).
type stateError struct {
	msg  string
	kind error
	err  error
}

func (e *stateError) Error() string        { return e.msg }
func (e *stateError) Unwrap() error        { return e.err }
func (e *stateError) Is(target error) bool { return target == e.kind }

// unavailable is the error of a server that did not start or was lost.
func unavailable(name string, err error) error {
	return &stateError{fmt.Sprintf("server %q: %v", name, err), ErrUnavailable, err}
}

func startFailure(name string, err error, timeout time.Duration) error {
	var exit *transport.ExitError
	switch {
	case errtype.As(err, &exit):
		// "server exited with status 2: <stderr>" becomes
		// `server "x" exited with status 2: <stderr>`.
		return &stateError{fmt.Sprintf("server %q %s", name, strings.TrimPrefix(exit.Error(), "server ")), ErrUnavailable, err}
	case errors.Is(err, context.DeadlineExceeded):
		return &stateError{fmt.Sprintf("server %q did not answer within %v", name, timeout), ErrUnavailable, err}
	}
	return unavailable(name, err)
}

// offError is why a server that is off (disabled, or not approved) is
// not started.
func (s *server) offError(state string) error {
	if state == StateDisabled {
		return &stateError{fmt.Sprintf("server %q is disabled", s.cfg.Name), ErrDisabled, nil}
	}
	return &stateError{fmt.Sprintf("server %q of the project's .mcp.json is not approved (%s)", s.cfg.Name, s.cfg.Approval), ErrUnapproved, nil}
}

// closedError is the error of a request to the closed server; s.mu is held.
func (s *server) closedError() error {
	return fmt.Errorf("server %q: %w", s.cfg.Name, cmp.Or(s.ended, ErrRemoved))
}
