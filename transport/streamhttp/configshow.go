package streamhttp

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/plainmcp/plainmcp/secret"
)

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
		c.Client != nil, c.Authorize != nil, c.MaxMessage, c.Logger != nil})
}
