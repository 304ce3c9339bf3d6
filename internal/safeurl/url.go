package safeurl

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// ErrUnsafe is wrapped by every error of [Check] and [Parse].
var ErrUnsafe = errors.New("not an https URL, or http on a loopback host")

// Parse parses raw, a URL that came from a peer or a config, and
// returns it if [Check] allows it. what names the URL in the error
// ("the token_endpoint of https://as.example"); the error never quotes
// raw, whose query may hold a state, a code or a key.
func Parse(what, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is malformed", ErrUnsafe, what)
	}
	if err := Check(what, u); err != nil {
		return nil, err
	}
	return u, nil
}

// Check reports whether u may be opened in a browser, handed to the
// system's URL opener or used as an OAuth endpoint: its scheme is https,
// or http with a loopback host ([Loopback]); it has a host, and no user
// info (which can make "https://bank.example@evil.example" read as the
// bank). what names the URL in the error, which shows the scheme it has
// and never the URL.
func Check(what string, u *url.URL) error {
	if u == nil {
		return fmt.Errorf("%w: %s is missing", ErrUnsafe, what)
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme != "https" && scheme != "http":
		if scheme == "" {
			return fmt.Errorf("%w: %s has no scheme", ErrUnsafe, what)
		}
		return fmt.Errorf("%w: %s has the scheme %q", ErrUnsafe, what, scheme)
	case u.Opaque != "" || u.Host == "":
		return fmt.Errorf("%w: %s has no host", ErrUnsafe, what)
	case u.User != nil:
		return fmt.Errorf("%w: %s carries user info", ErrUnsafe, what)
	case scheme == "http" && !Loopback(u.Hostname()):
		return fmt.Errorf("%w: %s is http on a host that is not loopback", ErrUnsafe, what)
	}
	return nil
}

// Loopback reports whether host (as url.URL.Hostname returns it) names
// this machine's loopback interface: "localhost", an address in
// 127.0.0.0/8, or ::1.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// Local reports whether host names this machine: a loopback host
// ([Loopback]), an unspecified address (0.0.0.0 and :: reach this
// machine's services), or a name under .localhost, which RFC 6761 sets
// aside for it.
func Local(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if Loopback(h) || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.Unmap().IsUnspecified()
}

// CheckNamed is [Check] for a URL that a peer at by named: a
// server's challenge, its metadata, a redirect. A peer that is not on
// this machine ([Local]) may not name one that is: that would let a
// remote server have the client, or the user's browser, send requests to
// the services listening on this machine.
func CheckNamed(what string, u, by *url.URL) error {
	if err := Check(what, u); err != nil {
		return err
	}
	if Local(u.Hostname()) && (by == nil || !Local(by.Hostname())) {
		return fmt.Errorf("%w: %s is on this machine, and the host that named it is not", ErrUnsafe, what)
	}
	return nil
}
