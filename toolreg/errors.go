package toolreg

import "errors"

// The errors of the registry, matched with errors.Is.

// ErrUnknownTool is returned by Call for a name no listing produced.
var ErrUnknownTool = errors.New("toolreg: unknown tool")

// ErrUnknownServer is returned for a server name that is not configured.
var ErrUnknownServer = errors.New("toolreg: unknown server")

// ErrUnavailable, ErrDisabled and ErrUnapproved are matched (errors.Is)
// by the error of a request to a server that cannot take it: one that did
// not start, or whose connection was lost (its cause stays reachable too:
// a *transport.ExitError, context.DeadlineExceeded …); one its config
// disables; one of a project's .mcp.json that the user has not approved.
var (
	ErrUnavailable = errors.New("toolreg: server unavailable")
	ErrDisabled    = errors.New("toolreg: server disabled")
	ErrUnapproved  = errors.New("toolreg: server not approved")
)

// ErrRemoved and ErrRegistryClosed are the reasons OnDisconnect gives for a
// server taken out by Remove or by the registry's Close: a clean end, not
// a failure (errors.Is tells them apart).
var (
	ErrRemoved        = errors.New("toolreg: server removed")
	ErrRegistryClosed = errors.New("toolreg: registry closed")
)

// ErrCallRefused is wrapped by the error of a call the approver refused
// (the transport's ErrCallRefused is a server's refusal of a message).
var ErrCallRefused = errors.New("toolreg: call refused")

// ErrNeedsAuth matches (errors.Is) the error of a server in
// StateNeedsAuth, a *NeedsAuthError.
var ErrNeedsAuth = errors.New("needs authorization")
