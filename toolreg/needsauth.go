package toolreg

import (
	"context"
	"fmt"
	"time"
)

// StateNeedsAuth is the state of an http or sse server that answered 401
// and could not be authorized without the user: no stored token, or one
// that no longer works. The Dial that met it says so with a
// *NeedsAuthError; package toolreg/remote's Dialer.Authorize completes
// the flow.
const StateNeedsAuth = "needs-auth"

// NeedsAuthError says a server needs the user to authorize the client. A
// Dial returns it (wrapped or not) for a server that needs authorization,
// and the registry reports the server in StateNeedsAuth.
type NeedsAuthError struct {
	Server string
	// AuthServer is the authorization server's origin, when discovery
	// found it.
	AuthServer string
}

func (e *NeedsAuthError) Error() string {
	msg := fmt.Sprintf("server %q needs authorization", e.Server)
	if e.AuthServer != "" {
		msg += " at " + e.AuthServer
	}
	return msg
}

// Is makes errors.Is(err, ErrNeedsAuth) true.
func (e *NeedsAuthError) Is(target error) bool { return target == ErrNeedsAuth }

// Reconnect dials the named server anew now, whatever its backoff, within
// ctx alone: the startup timeout does not apply, since what a host
// reconnects for (credentials the user is giving in a browser, say) may
// take minutes. A connected server's session is replaced.
func (r *Registry) Reconnect(ctx context.Context, name string) error {
	r.mu.Lock()
	s := r.servers[name]
	r.mu.Unlock()
	if s == nil {
		return fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	s.mu.Lock()
	if off(s.cfg) {
		err := s.offError(s.state)
		s.mu.Unlock()
		return err
	}
	s.failures, s.nextTry = 0, time.Time{} // try now
	if s.state == StateConnected {
		s.state = StateReconnecting // connect dials anew
	}
	s.mu.Unlock()
	return s.connect(ctx, false)
}
