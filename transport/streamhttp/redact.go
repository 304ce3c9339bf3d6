package streamhttp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/internal/logging"
	"github.com/plainmcp/plainmcp/internal/redact"
	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/secret"
)

// Secrets never leave through what the transport reports: error messages,
// HTTP error bodies quoted in them, log records, and printed configs. The
// config's secrets are secret.Strings, which print as "[redacted]"; what
// a server echoes back is taken out of the text it sent with
// redact.Text, which leaves values under redact.MinLen bytes alone.

// redactedText replaces a secret in text the transport shows.
const redactedText = secret.Placeholder

const (
	// minSecretLen is the length from which a value is redacted.
	minSecretLen = redact.MinLen
	// pieceLen is the length from which a part of a header value (a word,
	// a cookie's value) is redacted on its own: long enough to be a
	// credential by itself.
	pieceLen = 8
	// maxPieces bounds the parts of one value taken as secrets.
	maxPieces = 8
	// maxLearned bounds the values learned at run time (the Authorize
	// layer's headers, a cookie jar's cookies); the least recently seen
	// go first, so a token that is refreshed does not crowd out the
	// current one.
	maxLearned = 64
	// maxHookNames bounds the names of headers the Authorize layer added
	// that are remembered; beyond it, everything but a few harmless headers
	// is removed from requests to other origins.
	maxHookNames = 32
)

// secretSet is what one transport must never quote, and the names of the
// headers it must never send to another origin. It is safe for concurrent
// use.
type secretSet struct {
	fixed []secret.String // from the config
	names map[string]bool // canonical names of the configured headers

	mu        sync.Mutex
	learned   []secret.String // least recently seen first
	hookNames map[string]bool // canonical names the Authorize layer added
	tooMany   bool            // more than maxHookNames of them
}

// newSecretSet collects the secrets of a config: the bearer token, the
// configured header values (and their long parts), the URL's password (or
// its user name when it has no password: https://TOKEN@host), its query,
// and those of its values that are long or whose names suggest a key.
func newSecretSet(u *url.URL, headers map[string]secret.String, bearer, authorization secret.String) *secretSet {
	s := &secretSet{} // the maps are made when there is something to put in them
	if len(headers) > 0 {
		s.names = make(map[string]bool, len(headers))
	}
	var fixed []string
	add := func(vs ...string) {
		for _, v := range vs {
			if len(v) >= minSecretLen && !slices.Contains(fixed, v) {
				fixed = append(fixed, v)
			}
		}
	}
	add(bearer.Reveal())
	if a := authorization.Reveal(); a != "" {
		add(credentialPieces(a)...)
	}
	for name, v := range headers {
		s.names[textproto.CanonicalMIMEHeaderKey(name)] = true
		add(credentialPieces(v.Reveal())...)
	}
	if u.User != nil {
		if pass, ok := u.User.Password(); ok {
			add(pass)
		} else {
			add(u.User.Username())
		}
	}
	if u.RawQuery != "" {
		add(u.RawQuery)
		for _, pair := range strings.Split(u.RawQuery, "&") {
			k, v, _ := strings.Cut(pair, "=")
			dk, _ := url.QueryUnescape(k)
			dv, err := url.QueryUnescape(v)
			if err != nil {
				dv = v
			}
			if len(v) >= pieceLen || sensitiveKey(dk) {
				add(v, dv)
			}
		}
	}
	for _, v := range fixed {
		s.fixed = append(s.fixed, secret.New(v))
	}
	return s
}

// sensitiveKey reports whether a query parameter's name suggests that its
// value is a credential.
func sensitiveKey(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"key", "token", "secret", "pass", "pwd", "auth", "sig", "session", "code", "cred"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// credentialPieces is a header value and the parts of it that may be
// quoted alone: the credential after an auth scheme ("Bearer xyz" → "xyz")
// and the long words and cookie values in it.
func credentialPieces(v string) []string {
	out := []string{v}
	if _, cred, ok := strings.Cut(strings.TrimSpace(v), " "); ok {
		out = append(out, strings.TrimSpace(cred))
	}
	n := 0
	for _, p := range strings.FieldsFunc(v, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ',' || r == ';' || r == '='
	}) {
		if len(p) >= pieceLen && n < maxPieces {
			out = append(out, p)
			n++
		}
	}
	return out
}

// learnRequest records the credentials of a request bound for the
// server's origin, just before it goes out: the cookies a jar added and,
// below an Authorize layer, every header that layer added or changed
// (what headerRoundTripper sent it is in the context).
func (s *secretSet) learnRequest(req *http.Request, hooked bool) {
	if c := req.Header["Cookie"]; len(c) > 0 {
		s.learnValues(c)
	}
	if !hooked {
		return
	}
	// Without what headerRoundTripper sent (a hook that made a request of
	// its own), every header but the transport's own counts as added.
	pre, _ := req.Context().Value(preHookKey{}).(http.Header)
	for name, values := range req.Header {
		if old, ok := pre[name]; ok && slices.Equal(old, values) {
			continue
		}
		canon := textproto.CanonicalMIMEHeaderKey(name)
		if harmlessHeaders[canon] || strings.HasPrefix(canon, "Mcp-") || canon == "Referer" {
			continue // the transport's own, or net/http's on a redirect
		}
		s.learnName(canon)
		s.learnValues(values)
	}
}

func (s *secretSet) learnName(canon string) {
	if alwaysStripped(canon) || s.names[canon] {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.hookNames[canon]:
	case len(s.hookNames) < maxHookNames:
		if s.hookNames == nil {
			s.hookNames = map[string]bool{}
		}
		s.hookNames[canon] = true
	default:
		s.tooMany = true
	}
}

func (s *secretSet) learnValues(values []string) {
	for _, v := range values {
		for _, p := range credentialPieces(v) {
			s.learn(p)
		}
	}
}

// learn adds v to the learned values, or marks it the most recently seen.
func (s *secretSet) learn(v string) {
	if len(v) < minSecretLen {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.learned, func(l secret.String) bool { return l.Reveal() == v })
	switch {
	case i >= 0 && i == len(s.learned)-1:
		return
	case i >= 0:
		s.learned = slices.Delete(s.learned, i, i+1)
	case len(s.learned) == maxLearned:
		s.learned = slices.Delete(s.learned, 0, 1)
	}
	s.learned = append(s.learned, secret.New(v))
}

// all is every secret.
func (s *secretSet) all() []secret.String {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Concat(s.fixed, s.learned)
}

// harmlessHeaders may go to another origin even when the Authorize layer
// added more headers than the guard remembers.
var harmlessHeaders = map[string]bool{
	"Accept": true, "Accept-Encoding": true, "Accept-Language": true, "Cache-Control": true,
	"Content-Encoding": true, "Content-Length": true, "Content-Type": true, "Last-Event-Id": true,
	"Mcp-Method": true, "Mcp-Name": true, "Mcp-Protocol-Version": true, "User-Agent": true,
}

// alwaysStripped names the headers no request to another origin carries,
// whoever set them.
func alwaysStripped(canon string) bool {
	switch canon {
	case "Authorization", "Cookie", "Proxy-Authorization", "Mcp-Session-Id":
		return true
	}
	return strings.HasPrefix(canon, "Mcp-Param-")
}

// stripAcrossOrigins reports whether the header name (as spelled in a
// request's map) must be removed from a request to another origin.
func (s *secretSet) stripAcrossOrigins(name string) bool {
	canon := textproto.CanonicalMIMEHeaderKey(name)
	if alwaysStripped(canon) || s.names[canon] {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hookNames[canon] || s.tooMany && !harmlessHeaders[canon]
}

// redact replaces every secret the transport knows in text with
// "[redacted]": the bearer token, the configured header values, the
// headers the Authorize layer added and the cookies sent, and the URL's
// password and query.
func (b *httpBase) redact(text string) string {
	if b == nil || b.secrets == nil {
		return text
	}
	return redact.Text(text, b.secrets.all()...)
}

// redactedExcerpt is the start of an HTTP error body for an error message
// and HTTPError.Body, as safe.Quote makes it: every secret of b redacted
// (before the cut, so that none is split), on one printable line of at
// most excerptLen bytes, and the start of a secret at the end of a body
// read short redacted too.
func redactedExcerpt(b *httpBase, body []byte) string {
	var all []secret.String
	if b != nil && b.secrets != nil {
		all = b.secrets.all()
	}
	return safe.Quote(string(body), excerptLen, all...)
}

// safeURLText is a configured URL as it may be shown: redacted as
// redactURL does, or, if it does not parse, the part of it that is
// neither user info, query nor fragment.
func safeURLText(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return redactURL(u)
	}
	shown, ok := urlWithoutSecrets(raw)
	if !ok {
		return redactedText
	}
	if i := strings.IndexAny(raw, "?#"); i >= 0 && raw[i] == '?' {
		shown += "?…"
	}
	return shown
}

// A Config prints through every fmt verb, log/slog and encoding/json
// with its secrets hidden, by their type: the bearer token, the
// Authorization value and the header values are secret.Strings. Only the
// URL, a plain string that may carry a key in its query or a password,
// needs a hand here: it is shown as safeURLText shows it.

// shownConfig is a Config's fields, with none of its methods, for Format.
type shownConfig Config

// Format prints the config as fmt prints a struct, with the URL redacted.
// It is on the value type, so a *Config prints the same.
func (c Config) Format(f fmt.State, verb rune) {
	s := shownConfig(c)
	s.URL = safeURLText(c.URL)
	fmt.Fprintf(f, fmt.FormatString(f, verb), s)
}

// MarshalJSON encodes the config with the field names of Go and the URL
// redacted; of the client, the hook and the logger it says only whether
// they are set, since a function cannot be encoded.
func (c Config) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		URL               string
		Legacy            bool
		ConnectTimeout    time.Duration
		Headers           map[string]secret.String
		BearerToken       secret.String
		Authorization     secret.String
		Client, Authorize bool
		MaxMessage        int
		Logger            bool
	}{safeURLText(c.URL), c.Legacy, c.ConnectTimeout, c.Headers, c.BearerToken, c.Authorization,
		c.Client != nil, c.Authorize != nil, c.MaxMessage, logging.Usable(c.Logger) != nil})
}
