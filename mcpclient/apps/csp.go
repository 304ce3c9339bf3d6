package apps

import (
	"strings"
)

// Policy is the Content-Security-Policy an interface runs under: the
// extension's restrictive default (no network, no nested frames, no
// plugins, inline script and style allowed) opened only for the origins c
// names, each in the directives its kind maps to. An origin that is not a
// plain https or wss source (http and ws on loopback) is left out — see
// [CSP.Invalid] — since the server's strings go into a header: a
// keyword, a wildcard alone or a separator would allow what the server
// never declared.
func (c CSP) Policy() string {
	res := validSources(c.ResourceDomains)
	conn := validSources(c.ConnectDomains)
	frame := validSources(c.FrameDomains)
	base := validSources(c.BaseURIDomains)
	dirs := []string{
		"default-src 'none'",
		join("script-src 'self' 'unsafe-inline'", res),
		join("style-src 'self' 'unsafe-inline'", res),
		join("img-src 'self' data:", res),
		join("font-src 'self'", res),
		join("media-src 'self' data:", res),
		orNone("connect-src", conn),
		orNone("frame-src", frame),
		"object-src 'none'",
	}
	if len(base) == 0 {
		dirs = append(dirs, "base-uri 'self'")
	} else {
		dirs = append(dirs, join("base-uri", base))
	}
	return strings.Join(dirs, "; ")
}

// Invalid returns the origins in c that [CSP.Policy] leaves out.
func (c CSP) Invalid() []string {
	var out []string
	for _, list := range [][]string{c.ConnectDomains, c.ResourceDomains, c.FrameDomains, c.BaseURIDomains} {
		for _, s := range list {
			if !validSource(s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func join(dir string, srcs []string) string {
	if len(srcs) == 0 {
		return dir
	}
	return dir + " " + strings.Join(srcs, " ")
}

func orNone(dir string, srcs []string) string {
	if len(srcs) == 0 {
		return dir + " 'none'"
	}
	return join(dir, srcs)
}

func validSources(list []string) []string {
	var out []string
	for _, s := range list {
		if validSource(s) {
			out = append(out, s)
		}
	}
	return out
}

// validSource reports whether s is a CSP host source of the form
// scheme://host[:port][/path]: scheme https or wss (http or ws only for a
// loopback host), a host of letters, digits, dots and hyphens that may
// begin with "*." (a wildcard subdomain, as the extension allows), a
// numeric port, and a path of unreserved characters.
func validSource(s string) bool {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || len(s) > 512 {
		return false
	}
	hostport, path, _ := strings.Cut(rest, "/")
	host, port, hasPort := strings.Cut(hostport, ":")
	if hasPort && (port == "" || len(port) > 5 || strings.Trim(port, "0123456789") != "") {
		return false
	}
	if !validPath(path) {
		return false
	}
	wild := strings.HasPrefix(host, "*.")
	if wild {
		host = host[2:]
	}
	if !validHost(host) {
		return false
	}
	switch strings.ToLower(scheme) {
	case "https", "wss":
		return true
	case "http", "ws":
		return !wild && (host == "localhost" || host == "127.0.0.1")
	}
	return false
}

func validHost(h string) bool {
	if h == "" || len(h) > 253 || h[0] == '.' || h[0] == '-' || h[len(h)-1] == '.' {
		return false
	}
	for _, r := range h {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			return false
		}
	}
	return !strings.Contains(h, "..")
}

func validPath(p string) bool {
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-._~/", r)) {
			return false
		}
	}
	return true
}
