package mcpjson

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// A ServerConfig prints, logs and marshals without its secrets. Most are
// hidden by their type: env and header values and the headersHelper
// command are secret.Strings, which print as "[redacted]" through every
// fmt verb, log/slog and encoding/json. The fields that are plain strings
// are shown by String, Format and MarshalJSON as String describes: as
// written where they held a ${NAME} reference, URLs without passwords and
// query values, arguments that look like credentials hidden, and the
// values of the keys plainmcp does not read (Extra), which may be
// anything, as "[redacted]". The methods are on the value type, so a
// *ServerConfig prints alike. log/slog's text handler prints through
// Format, its JSON handler through MarshalJSON.

// shownServer is a ServerConfig's fields, without its methods: what
// %#v and MarshalJSON print.
type shownServer ServerConfig

// shownCopy is s with its plain-string fields as they may be shown.
func (s *ServerConfig) shownCopy() shownServer {
	c := shownServer(*s)
	c.Command, c.Args, c.Cwd = s.shown("command", s.Command), s.shownArgs(), s.shown("cwd", s.Cwd)
	c.URL = redactURL(s.shown("url", s.URL))
	if s.OAuth != nil {
		o := *s.OAuth
		o.AuthServerMetadataURL = redactURL(o.AuthServerMetadataURL)
		c.OAuth = &o
	}
	if s.Extra != nil {
		c.Extra = make(map[string]json.RawMessage, len(s.Extra))
		for k := range s.Extra {
			c.Extra[k] = json.RawMessage(strconv.Quote(redactedText))
		}
	}
	c.templates = nil
	return c
}

// Format makes every fmt verb print String, and %#v the fields in Go
// syntax as they may be shown.
func (s ServerConfig) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprintf(f, "%#v", s.shownCopy())
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), s.String())
}

// MarshalJSON encodes the server as encoding/json encodes a ServerConfig's
// fields — every exported field, under its Go name, the timeouts in
// nanoseconds — as they may be shown.
func (s ServerConfig) MarshalJSON() ([]byte, error) {
	return json.Marshal(s.shownCopy())
}
