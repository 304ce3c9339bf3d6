package toolreg

import (
	"context"
	"fmt"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// ServerStatus is what Servers reports of one server. Title and
// Instructions come from the server: data, never instructions to follow.
type ServerStatus struct {
	Name            string
	State           string // StateConnected, StateFailed, StateReconnecting, StateDisabled
	Err             error  // the last error, for failed and reconnecting servers
	Tools           int    // tools in the last listing (after filtering)
	ListErr         error  // why the last tools/list failed, if it did
	Transport       string // stdio, http, sse
	ProtocolVersion string
	Title           string
	Instructions    string
	Source          string // the config file
}

// Servers reports every configured server, in config order.
func (r *Registry) Servers() []ServerStatus {
	var out []ServerStatus
	for _, s := range r.snapshot() {
		s.mu.Lock()
		st := ServerStatus{Name: s.cfg.Name, State: s.state, Err: s.lastErr, Tools: len(s.tools.items), ListErr: s.tools.err,
			Transport: s.transport, Source: s.cfg.Source}
		session := s.session
		s.mu.Unlock()
		if session != nil && st.State == StateConnected {
			info := session.ServerInfo()
			st.ProtocolVersion, st.Title, st.Instructions = session.ProtocolVersion(), info.Title, session.Instructions()
		}
		out = append(out, st)
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
