package streamhttp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Secrets never leave through what the transport reports: error messages,
// HTTP error bodies quoted in them, log records, and printed configs.
//
// Values are redacted only from 4 bytes on (minSecretLen). Redacting
// shorter ones would not protect anything worth the name (a credential of
// one to three bytes is guessed in a moment) and would wreck the text it
// is applied to: a header "X-Debug: 1" would turn every "1" of a status
// line or a JSON body into "[redacted]", and the placement of the marks
// would tell the value anyway.

// redactedText replaces a secret in text the transport shows.
const redactedText = "[redacted]"

const (
	// minSecretLen is the length from which a value is redacted.
	minSecretLen = 4
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
	fixed []string        // from the config, longest first
	names map[string]bool // canonical names of the configured headers

	mu        sync.Mutex
	learned   []string        // least recently seen first
	hookNames map[string]bool // canonical names the Authorize layer added
	tooMany   bool            // more than maxHookNames of them
}

// newSecretSet collects the secrets of a config: the bearer token, the
// configured header values (and their long parts), the URL's password (or
// its user name when it has no password: https://TOKEN@host), its query,
// and those of its values that are long or whose names suggest a key.
func newSecretSet(u *url.URL, headers http.Header, bearer, authorization string) *secretSet {
	s := &secretSet{names: map[string]bool{}, hookNames: map[string]bool{}}
	var fixed []string
	add := func(vs ...string) {
		for _, v := range vs {
			if len(v) >= minSecretLen && !strings.Contains(redactedText, v) && !slices.Contains(fixed, v) {
				fixed = append(fixed, v)
			}
		}
	}
	add(bearer)
	add(credentialPieces(authorization)...)
	for name, values := range headers {
		s.names[textproto.CanonicalMIMEHeaderKey(name)] = true
		for _, v := range values {
			add(credentialPieces(v)...)
		}
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
	sortLongestFirst(fixed)
	s.fixed = fixed
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

func sortLongestFirst(list []string) {
	sort.SliceStable(list, func(i, j int) bool { return len(list[i]) > len(list[j]) })
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
	if len(v) < minSecretLen || strings.Contains(redactedText, v) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.Index(s.learned, v); i >= 0 {
		if i != len(s.learned)-1 {
			s.learned = append(slices.Delete(s.learned, i, i+1), v)
		}
		return
	}
	if len(s.learned) == maxLearned {
		s.learned = slices.Delete(s.learned, 0, 1)
	}
	s.learned = append(s.learned, v)
}

// all is every secret, longest first.
func (s *secretSet) all() []string {
	s.mu.Lock()
	list := make([]string, 0, len(s.fixed)+len(s.learned))
	list = append(list, s.fixed...)
	list = append(list, s.learned...)
	s.mu.Unlock()
	sortLongestFirst(list)
	return list
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
// password and query. Longer secrets go first, so that one that contains
// another leaves nothing of itself behind.
func (b *httpBase) redact(text string) string {
	if b == nil || b.secrets == nil || text == "" {
		return text
	}
	for _, v := range b.secrets.all() {
		if strings.Contains(text, v) {
			text = strings.ReplaceAll(text, v, redactedText)
		}
	}
	return text
}

// redactTail replaces the start of a secret that text ends with, as a
// body cut short leaves it (from minSecretLen bytes on).
func (b *httpBase) redactTail(text string) string {
	if b == nil || b.secrets == nil {
		return text
	}
	for _, v := range b.secrets.all() {
		for k := min(len(v)-1, len(text)); k >= minSecretLen; k-- {
			if strings.HasSuffix(text, v[:k]) {
				return text[:len(text)-k] + redactedText
			}
		}
	}
	return text
}

// redactedExcerpt is the start of an HTTP error body for an error message
// and HTTPError.Body: bounded as excerpt bounds it, on one line, with every
// secret of b redacted first (so that no cut can split one) and the start
// of a secret at the end of a body read short redacted too.
func redactedExcerpt(b *httpBase, body []byte) string {
	s := excerpt([]byte(b.redact(string(body))))
	s, cut := strings.CutSuffix(s, "…")
	s = b.redactTail(s)
	if cut {
		s += "…"
	}
	return s
}

// checkRedirect is the client's redirect policy: a redirect to another
// origin is never followed, whatever next (the caller's CheckRedirect)
// says, since the MCP endpoint's requests carry its credentials and its
// session; one within the origin is left to next, or to net/http's limit
// of 10 when next is nil. An error of next's is passed on with the URLs'
// secrets and the transport's redacted from its message.
func (b *httpBase) checkRedirect(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	home := origin(b.endpoint)
	return func(req *http.Request, via []*http.Request) error {
		if o := origin(req.URL); o != home {
			return &redirectError{origin: o}
		}
		if next == nil {
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			return nil
		}
		err := next(req, via)
		if err == nil || err == http.ErrUseLastResponse { // compared with ==, so not wrapped
			return err
		}
		urls := []*url.URL{req.URL}
		for _, r := range via {
			urls = append(urls, r.URL)
		}
		return &scrubbedError{msg: b.redact(redactURLsIn(err.Error(), urls)), err: err}
	}
}

// redirectError refuses a redirect of an MCP request to another origin.
// The client wraps it in a *url.Error naming the target URL, which the
// transport drops (urlErrorCause); it names the origin only.
type redirectError struct{ origin string }

func (e *redirectError) Error() string {
	return "refusing to follow a redirect of the MCP endpoint to another origin (" + e.origin + ")"
}

// scrubbedError is an error whose message had secrets removed; errors.Is
// and errors.As still see the original.
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

// redactURLsIn replaces, in msg, each URL of urls with its redacted form,
// and then their user info and queries wherever they still appear.
func redactURLsIn(msg string, urls []*url.URL) string {
	for _, u := range urls {
		if u != nil {
			msg = strings.ReplaceAll(msg, u.String(), redactURL(u))
		}
	}
	for _, u := range urls {
		if u == nil {
			continue
		}
		if u.User != nil && u.User.String() != "" {
			msg = strings.ReplaceAll(msg, u.User.String()+"@", "")
		}
		if len(u.RawQuery) >= minSecretLen {
			msg = strings.ReplaceAll(msg, u.RawQuery, "…")
		}
	}
	return msg
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

// Printing a Config shows its URL redacted (no user info, the query as
// "…"), its header names with "[redacted]" for the values, the bearer
// token as "[redacted]" when set, and of the client, the authorization
// hook and the logger only that they are set. Every fmt verb goes through
// Format, so no verb prints a field as it is; the methods are on the value
// type, so a *Config prints the same.

// String describes the config on one line, as fmt's %+v shows a struct,
// with the fields that are not zero (the URL always).
func (c Config) String() string {
	var b strings.Builder
	b.WriteString("{URL:")
	b.WriteString(safeURLText(c.URL))
	if c.Legacy {
		b.WriteString(" Legacy:true")
	}
	if len(c.Headers) > 0 {
		b.WriteString(" Headers:map[")
		for i, name := range sortedHeaderNames(c.Headers) {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(name + ":" + redactedText)
		}
		b.WriteByte(']')
	}
	if c.BearerToken != "" {
		b.WriteString(" BearerToken:" + redactedText)
	}
	if c.Authorization != "" {
		b.WriteString(" Authorization:" + redactedText)
	}
	for _, f := range c.setFields() {
		b.WriteString(" " + f + ":set")
	}
	if c.MaxMessage != 0 {
		fmt.Fprintf(&b, " MaxMessage:%d", c.MaxMessage)
	}
	b.WriteByte('}')
	return b.String()
}

// GoString is what %#v prints: Go syntax, but for "set" in place of the
// client, the hook and the logger.
func (c Config) GoString() string {
	var b strings.Builder
	fmt.Fprintf(&b, "streamhttp.Config{URL:%q", safeURLText(c.URL))
	if c.Legacy {
		b.WriteString(", Legacy:true")
	}
	if len(c.Headers) > 0 {
		b.WriteString(", Headers:http.Header{")
		for i, name := range sortedHeaderNames(c.Headers) {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q:{", name)
			for j := range c.Headers[name] {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(`"` + redactedText + `"`)
			}
			b.WriteByte('}')
		}
		b.WriteByte('}')
	}
	if c.BearerToken != "" {
		b.WriteString(`, BearerToken:"` + redactedText + `"`)
	}
	if c.Authorization != "" {
		b.WriteString(`, Authorization:"` + redactedText + `"`)
	}
	for _, f := range c.setFields() {
		b.WriteString(", " + f + ":set")
	}
	if c.MaxMessage != 0 {
		fmt.Fprintf(&b, ", MaxMessage:%d", c.MaxMessage)
	}
	b.WriteByte('}')
	return b.String()
}

// Format makes every fmt verb print String (GoString for %#v).
func (c Config) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		io.WriteString(f, c.GoString())
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), c.String())
}

// LogValue is what log/slog records: a group of the fields that are not
// zero (the URL always), redacted as String redacts them.
func (c Config) LogValue() slog.Value {
	attrs := []slog.Attr{slog.String("url", safeURLText(c.URL))}
	if c.Legacy {
		attrs = append(attrs, slog.Bool("legacy", true))
	}
	if len(c.Headers) > 0 {
		var hs []slog.Attr
		for _, name := range sortedHeaderNames(c.Headers) {
			hs = append(hs, slog.String(name, redactedText))
		}
		attrs = append(attrs, slog.Attr{Key: "headers", Value: slog.GroupValue(hs...)})
	}
	if c.BearerToken != "" {
		attrs = append(attrs, slog.String("bearerToken", redactedText))
	}
	if c.Authorization != "" {
		attrs = append(attrs, slog.String("authorization", redactedText))
	}
	for _, f := range c.setFields() {
		attrs = append(attrs, slog.String(strings.ToLower(f[:1])+f[1:], "set"))
	}
	if c.MaxMessage != 0 {
		attrs = append(attrs, slog.Int("maxMessage", c.MaxMessage))
	}
	return slog.GroupValue(attrs...)
}

// MarshalJSON encodes the config with the field names of Go, redacted as
// String redacts it: {"URL":"https://example.com/mcp?…","Headers":
// {"X-Api-Key":["[redacted]"]},"BearerToken":"[redacted]","Client":"set"}.
// Fields that are zero are left out, but for the URL.
func (c Config) MarshalJSON() ([]byte, error) {
	out := struct {
		URL           string
		Legacy        bool                `json:",omitempty"`
		Headers       map[string][]string `json:",omitempty"`
		BearerToken   string              `json:",omitempty"`
		Authorization string              `json:",omitempty"`
		Client        string              `json:",omitempty"`
		Authorize     string              `json:",omitempty"`
		MaxMessage    int                 `json:",omitempty"`
		Logger        string              `json:",omitempty"`
	}{URL: safeURLText(c.URL), Legacy: c.Legacy, MaxMessage: c.MaxMessage}
	if len(c.Headers) > 0 {
		out.Headers = map[string][]string{}
		for name, values := range c.Headers {
			out.Headers[name] = slices.Repeat([]string{redactedText}, max(len(values), 1))
		}
	}
	if c.BearerToken != "" {
		out.BearerToken = redactedText
	}
	if c.Authorization != "" {
		out.Authorization = redactedText
	}
	if c.Client != nil {
		out.Client = "set"
	}
	if c.Authorize != nil {
		out.Authorize = "set"
	}
	if c.Logger != nil {
		out.Logger = "set"
	}
	return json.Marshal(out)
}

// setFields names the client, hook and logger fields that are set.
func (c Config) setFields() []string {
	var set []string
	if c.Client != nil {
		set = append(set, "Client")
	}
	if c.Authorize != nil {
		set = append(set, "Authorize")
	}
	if c.Logger != nil {
		set = append(set, "Logger")
	}
	return set
}

// sortedHeaderNames is h's names, sorted.
func sortedHeaderNames(h http.Header) []string {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
