package mcpjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/internal/mcpversion"
	"github.com/plainmcp/plainmcp/secret"
)

// The keys of a server entry that plainmcp reads, each with its decoder
// (serverKeys), the decoders of the values they share (a list or an object
// of strings, a duration), and the keys of the oauth object (oauthKeys).

// knownType is the transport a server's "type" names, or "" if none.
func knownType(t string) string {
	switch t {
	case "stdio", "http", "sse":
		return t
	case "streamable-http", "streamableHttp": // as some other clients write it
		return "http"
	}
	return ""
}

// A keyDecoder reads the value of one key of a server entry into e. An
// error matching ErrConfig is returned as it is; any other is located at
// the key.
type keyDecoder func(e *entry, key string, raw json.RawMessage) error

// serverKeys are the keys of a server that plainmcp reads, and how.
var serverKeys = map[string]keyDecoder{
	"type":            decodeType,
	"transport":       decodeTransport,
	"command":         stringKey(func(s *ServerConfig) *string { return &s.Command }),
	"cwd":             stringKey(func(s *ServerConfig) *string { return &s.Cwd }),
	"url":             stringKey(func(s *ServerConfig) *string { return &s.URL }),
	"disabled":        boolKey(func(e *entry) *bool { return &e.s.Disabled }),
	"inheritEnv":      boolKey(func(e *entry) *bool { return &e.inherit }),
	"args":            listKey(func(s *ServerConfig) *[]string { return &s.Args }),
	"allow":           listKey(func(s *ServerConfig) *[]string { return &s.Allow }),
	"deny":            listKey(func(s *ServerConfig) *[]string { return &s.Deny }),
	"env":             mapKey(func(e *entry) *[]stringMember { return &e.env }),
	"headers":         mapKey(func(e *entry) *[]stringMember { return &e.headers }),
	"headersHelper":   decodeHeadersHelper,
	"oauth":           decodeOAuthKey,
	"timeout":         durationKey(func(s *ServerConfig) *time.Duration { return &s.Timeout }),
	"toolTimeout":     durationKey(func(s *ServerConfig) *time.Duration { return &s.ToolTimeout }),
	"protocolVersion": decodeProtocolVersion,
}

func decodeType(e *entry, key string, raw json.RawMessage) error {
	var t string
	if json.Unmarshal(raw, &t) != nil {
		return errors.New("want a string")
	}
	if e.s.Type = knownType(t); e.s.Type == "" {
		return fmt.Errorf("%q is not a known transport; want stdio, http or sse", t)
	}
	return nil
}

// decodeTransport reads "transport", which some clients' configs (Saiki's)
// write for "type": settle reconciles the two.
func decodeTransport(e *entry, key string, raw json.RawMessage) error {
	var t string
	if json.Unmarshal(raw, &t) != nil {
		return errors.New("want a string")
	}
	if e.transport = knownType(t); e.transport == "" {
		return fmt.Errorf("%q is not a known transport; want stdio, http or sse", t)
	}
	return nil
}

func stringKey(field func(*ServerConfig) *string) keyDecoder {
	return func(e *entry, _ string, raw json.RawMessage) error { return decodeString(raw, field(e.s)) }
}

func boolKey(field func(*entry) *bool) keyDecoder {
	return func(e *entry, _ string, raw json.RawMessage) error {
		if json.Unmarshal(raw, field(e)) != nil {
			return errors.New("want true or false")
		}
		return nil
	}
}

func listKey(field func(*ServerConfig) *[]string) keyDecoder {
	return func(e *entry, key string, raw json.RawMessage) (err error) {
		*field(e.s), err = e.p.stringList(e.s.Name, key, raw)
		return err
	}
}

func mapKey(field func(*entry) *[]stringMember) keyDecoder {
	return func(e *entry, key string, raw json.RawMessage) (err error) {
		*field(e), err = e.p.stringMap(e.s.Name, key, raw)
		return err
	}
}

func durationKey(field func(*ServerConfig) *time.Duration) keyDecoder {
	return func(e *entry, _ string, raw json.RawMessage) (err error) {
		*field(e.s), err = decodeDuration(raw)
		return err
	}
}

func decodeHeadersHelper(e *entry, _ string, raw json.RawMessage) error {
	var helper string
	if err := decodeString(raw, &helper); err != nil {
		return err
	}
	if strings.TrimSpace(helper) == "" {
		return errors.New("empty")
	}
	e.s.HeadersHelper = secret.New(helper)
	return nil
}

// decodeOAuthKey keeps the oauth object for once the type is known (a
// stdio server has no use for it), and among the keys plainmcp does not
// read too, where its value is never printed: other programs may put
// secrets there.
func decodeOAuthKey(e *entry, key string, raw json.RawMessage) error {
	if e.s.Extra == nil {
		e.s.Extra = map[string]json.RawMessage{}
	}
	e.s.Extra[key] = raw
	e.oauthRaw = raw
	return nil
}

func decodeProtocolVersion(e *entry, _ string, raw json.RawMessage) error {
	if err := decodeString(raw, &e.s.ProtocolVersion); err != nil {
		return err
	}
	if !slices.Contains(mcpversion.Supported(), e.s.ProtocolVersion) {
		return fmt.Errorf("%q is not a version plainmcp speaks (%s)", e.s.ProtocolVersion, strings.Join(mcpversion.Supported(), ", "))
	}
	return nil
}

// stringList decodes an array of strings; an error names the element.
func (p *configParser) stringList(server, key string, raw json.RawMessage) ([]string, error) {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, errors.New("want an array of strings")
	}
	list := make([]string, len(items))
	for i, item := range items {
		if isJSONNull(item) || json.Unmarshal(item, &list[i]) != nil {
			return nil, p.errorf(server, key+"["+strconv.Itoa(i)+"]", "want a string")
		}
	}
	return list, nil
}

// stringMap decodes an object of strings, in order; an error names the
// member.
func (p *configParser) stringMap(server, key string, raw json.RawMessage) ([]stringMember, error) {
	fields, ok := objectFields(raw)
	if !ok {
		return nil, errors.New("want an object of strings")
	}
	pairs := make([]stringMember, 0, len(fields))
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.key] {
			return nil, p.errorf(server, key+"."+f.key, "appears twice")
		}
		seen[f.key] = true
		var v string
		if isJSONNull(f.val) || json.Unmarshal(f.val, &v) != nil {
			return nil, p.errorf(server, key+"."+f.key, "want a string")
		}
		pairs = append(pairs, stringMember{f.key, v})
	}
	return pairs, nil
}

// maxMillis is the largest number of milliseconds a time.Duration holds.
const maxMillis = math.MaxInt64 / int64(time.Millisecond)

// decodeDuration decodes a timeout: a number of milliseconds, as Claude
// Code's own timeouts are written, or a Go duration string such as "30s".
func decodeDuration(raw json.RawMessage) (time.Duration, error) {
	bad := errors.New(`want milliseconds (a number) or a duration such as "30s"`)
	var str string
	if json.Unmarshal(raw, &str) == nil {
		d, err := time.ParseDuration(str)
		if err != nil || d < 0 {
			return 0, bad
		}
		return d, nil
	}
	var ms float64
	if json.Unmarshal(raw, &ms) != nil || !(ms >= 0 && ms <= float64(maxMillis)) {
		return 0, bad
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// oauth parses a server's "oauth" object. Keys it does not know are
// left alone, as in the server object.
func (p *configParser) oauth(server string, raw json.RawMessage) (*OAuthConfig, error) {
	fields, ok := objectFields(raw)
	if !ok {
		return nil, p.errorf(server, "oauth", "want an object")
	}
	o := &OAuthConfig{}
	for _, f := range fields {
		if isJSONNull(f.val) {
			continue
		}
		if dec := oauthKeys[f.key]; dec != nil {
			if msg := dec(o, f.val); msg != "" {
				return nil, p.errorf(server, "oauth."+f.key, "%s", msg)
			}
		}
	}
	return o, nil
}

// oauthKeys are the keys of "oauth" that plainmcp reads; each decoder
// returns what is wrong with the value, or "".
var oauthKeys = map[string]func(o *OAuthConfig, raw json.RawMessage) string{
	"clientId": func(o *OAuthConfig, raw json.RawMessage) string {
		if decodeString(raw, &o.ClientID) != nil {
			return "want a string"
		}
		return ""
	},
	"callbackPort": func(o *OAuthConfig, raw json.RawMessage) string {
		if json.Unmarshal(raw, &o.CallbackPort) != nil || o.CallbackPort < 1 || o.CallbackPort > 65535 {
			return "want a port number from 1 to 65535"
		}
		return ""
	},
	"authServerMetadataUrl": func(o *OAuthConfig, raw json.RawMessage) string {
		if decodeString(raw, &o.AuthServerMetadataURL) != nil {
			return "want a string"
		}
		u, err := url.Parse(o.AuthServerMetadataURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return "want an http or https URL"
		}
		return ""
	},
	"clientSecret": func(o *OAuthConfig, raw json.RawMessage) string {
		// Expanded with the rest (entry.expand); a secret.String from here.
		var s string
		if decodeString(raw, &s) != nil {
			return "want a string"
		}
		o.ClientSecret = secret.New(s)
		return ""
	},
	"scopes": func(o *OAuthConfig, raw json.RawMessage) string {
		var one string
		if json.Unmarshal(raw, &one) == nil {
			o.Scopes = strings.Fields(one)
		} else if json.Unmarshal(raw, &o.Scopes) != nil {
			return "want a string or a list of strings"
		}
		return ""
	},
}
