package mcpjson

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A ServerConfig prints, logs and marshals with the secrets String hides
// hidden the same way: env and header values are "[redacted]" (or their
// text as written, when it held a ${NAME} reference), URLs lose their
// passwords and query values, arguments that look like credentials are
// hidden, and so are the values of the keys plainmcp does not read
// (Extra), which may be anything. The methods are on the value type, so a
// *ServerConfig prints alike, and Format sends every fmt verb through
// String (GoString for %#v), so that none prints a field as it is.

// Format makes every fmt verb print String (GoString for %#v).
func (s ServerConfig) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		io.WriteString(f, s.GoString())
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), s.String())
}

// GoString is what %#v prints: Go syntax for the fields that are not
// zero, with the secrets hidden.
func (s ServerConfig) GoString() string {
	g := &goFields{}
	g.str("Name", s.Name)
	g.str("Type", s.Type)
	g.str("Command", s.shown("command", s.Command))
	g.list("Args", s.shownArgs())
	g.dict("Env", s.redactedMap("env.", s.Env))
	g.str("Cwd", s.shown("cwd", s.Cwd))
	g.flag("SafeEnv", s.SafeEnv)
	g.str("URL", redactURL(s.shown("url", s.URL)))
	g.dict("Headers", s.redactedMap("headers.", s.Headers))
	g.str("HeadersHelper", s.HeadersHelper)
	if o := s.OAuth; o != nil {
		g.field("OAuth", fmt.Sprintf("&mcpjson.OAuthConfig{ClientID:%q, CallbackPort:%d, AuthServerMetadataURL:%q, Scopes:%#v}",
			o.ClientID, o.CallbackPort, redactURL(o.AuthServerMetadataURL), o.Scopes))
	}
	if s.Timeout != 0 {
		g.field("Timeout", strconv.FormatInt(int64(s.Timeout), 10))
	}
	if s.ToolTimeout != 0 {
		g.field("ToolTimeout", strconv.FormatInt(int64(s.ToolTimeout), 10))
	}
	g.flag("Disabled", s.Disabled)
	g.list("Allow", s.Allow)
	g.list("Deny", s.Deny)
	g.str("Source", s.Source)
	g.str("Scope", s.Scope)
	g.str("Approval", s.Approval)
	if s.Extra != nil {
		var q []string
		for _, k := range slices.Sorted(maps.Keys(s.Extra)) {
			q = append(q, strconv.Quote(k)+":json.RawMessage(`\""+redactedText+"\"`)")
		}
		g.field("Extra", "map[string]json.RawMessage{"+strings.Join(q, ", ")+"}")
	}
	return "mcpjson.ServerConfig{" + strings.Join(g.fields, ", ") + "}"
}

// goFields gathers the fields GoString prints, in Go syntax.
type goFields struct{ fields []string }

func (g *goFields) field(name, value string) { g.fields = append(g.fields, name+":"+value) }

func (g *goFields) str(name, v string) {
	if v != "" {
		g.field(name, strconv.Quote(v))
	}
}

func (g *goFields) flag(name string, v bool) {
	if v {
		g.field(name, "true")
	}
}

func (g *goFields) list(name string, l []string) {
	if l != nil {
		q := make([]string, len(l))
		for i, v := range l {
			q[i] = strconv.Quote(v)
		}
		g.field(name, "[]string{"+strings.Join(q, ", ")+"}")
	}
}

func (g *goFields) dict(name string, m map[string]string) {
	if m != nil {
		var q []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			q = append(q, strconv.Quote(k)+":"+strconv.Quote(m[k]))
		}
		g.field(name, "map[string]string{"+strings.Join(q, ", ")+"}")
	}
}

// LogValue is what log/slog records: a group of the fields that are not
// zero, with the secrets hidden.
func (s ServerConfig) LogValue() slog.Value {
	var attrs []slog.Attr
	str := func(key, v string) {
		if v != "" {
			attrs = append(attrs, slog.String(key, v))
		}
	}
	list := func(key string, l []string) {
		if len(l) > 0 {
			attrs = append(attrs, slog.Any(key, l))
		}
	}
	dict := func(key string, m map[string]string) {
		if len(m) > 0 {
			var g []slog.Attr
			for _, k := range slices.Sorted(maps.Keys(m)) {
				g = append(g, slog.String(k, m[k]))
			}
			attrs = append(attrs, slog.Attr{Key: key, Value: slog.GroupValue(g...)})
		}
	}
	str("name", s.Name)
	str("type", s.Type)
	str("command", s.shown("command", s.Command))
	list("args", s.shownArgs())
	dict("env", s.redactedMap("env.", s.Env))
	str("cwd", s.shown("cwd", s.Cwd))
	if s.SafeEnv {
		attrs = append(attrs, slog.Bool("safeEnv", true))
	}
	str("url", redactURL(s.shown("url", s.URL)))
	dict("headers", s.redactedMap("headers.", s.Headers))
	str("headersHelper", s.HeadersHelper)
	if o := s.OAuth; o != nil {
		attrs = append(attrs, slog.Group("oauth", "clientId", o.ClientID, "callbackPort", o.CallbackPort,
			"authServerMetadataUrl", redactURL(o.AuthServerMetadataURL), "scopes", o.Scopes))
	}
	if s.Timeout != 0 {
		attrs = append(attrs, slog.Duration("timeout", s.Timeout))
	}
	if s.ToolTimeout != 0 {
		attrs = append(attrs, slog.Duration("toolTimeout", s.ToolTimeout))
	}
	if s.Disabled {
		attrs = append(attrs, slog.Bool("disabled", true))
	}
	list("allow", s.Allow)
	list("deny", s.Deny)
	str("source", s.Source)
	if len(s.Extra) > 0 {
		extra := make(map[string]string, len(s.Extra))
		for k := range s.Extra {
			extra[k] = redactedText
		}
		dict("extra", extra)
	}
	return slog.GroupValue(attrs...)
}

// MarshalJSON encodes the server as encoding/json encoded a ServerConfig
// before it had the method — every exported field, under its Go name, the
// timeouts in nanoseconds — with the secrets hidden: what String hides,
// env and header values, and the values of Extra.
func (s ServerConfig) MarshalJSON() ([]byte, error) {
	out := struct {
		Name            string
		Type            string
		Command         string
		Args            []string
		Env             map[string]string
		Cwd             string
		SafeEnv         bool
		URL             string
		Headers         map[string]string
		HeadersHelper   string
		OAuth           *OAuthConfig
		Timeout         time.Duration
		ToolTimeout     time.Duration
		ProtocolVersion string
		Disabled        bool
		Allow, Deny     []string
		Source          string
		Scope           string
		Approval        string
		Extra           map[string]json.RawMessage
	}{
		Name: s.Name, Type: s.Type,
		Command: s.shown("command", s.Command), Args: s.shownArgs(),
		Env: s.redactedMap("env.", s.Env), Cwd: s.shown("cwd", s.Cwd), SafeEnv: s.SafeEnv,
		URL: redactURL(s.shown("url", s.URL)), Headers: s.redactedMap("headers.", s.Headers),
		HeadersHelper: s.HeadersHelper,
		Timeout:       s.Timeout, ToolTimeout: s.ToolTimeout, ProtocolVersion: s.ProtocolVersion, Disabled: s.Disabled,
		Allow: s.Allow, Deny: s.Deny, Source: s.Source, Scope: s.Scope, Approval: s.Approval,
	}
	if o := s.OAuth; o != nil {
		c := *o
		c.AuthServerMetadataURL = redactURL(c.AuthServerMetadataURL)
		out.OAuth = &c
	}
	if s.Extra != nil {
		out.Extra = make(map[string]json.RawMessage, len(s.Extra))
		for k := range s.Extra {
			out.Extra[k] = json.RawMessage(strconv.Quote(redactedText))
		}
	}
	return json.Marshal(out)
}

// redactedMap is an env or headers map with each value hidden, unless it
// is empty or was written as a reference (key prefix + name in
// templates), which is shown as written.
func (s *ServerConfig) redactedMap(prefix string, m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = redactPiece(s.shown(prefix+k, v))
	}
	return out
}
