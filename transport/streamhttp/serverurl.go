package streamhttp

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// The server URL: parsed, checked, and never quoted with its secrets (user
// info, query) in an error.

// parseServerURL parses the configured URL and returns it with its text,
// which every request is made from. Its errors never quote the URL's user
// info, query or fragment, which may hold credentials: url.Parse's own
// error repeats the whole URL, so it is never wrapped.
func parseServerURL(raw string) (*url.URL, string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, "", malformedURL(raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, "", fmt.Errorf("streamhttp: server URL %q: want an http or https URL", redactURL(u))
	}
	// Make sure the text requests are made from parses, so that no
	// request can fail with an error quoting it. Text that reads back as
	// it was written has just parsed.
	text := u.String()
	if text != raw {
		if _, err := url.Parse(text); err != nil {
			return nil, "", malformedURL(text, err)
		}
	}
	return u, text, nil
}

// malformedURL describes why raw did not parse, without its secrets. It
// shows the URL's scheme, host and path when they can be told apart from
// the rest, and the reason url.Parse gave without the parts it quotes
// (which may come from the user info), unless the reason lies in what is
// shown.
func malformedURL(raw string, err error) error {
	reason := unquoted(urlErrorCause(err).Error())
	shown, ok := urlWithoutSecrets(raw)
	if !ok {
		return fmt.Errorf("streamhttp: the server URL is malformed: %s", reason)
	}
	if _, err := url.Parse(shown); err != nil {
		reason = urlErrorCause(err).Error() // it quotes only what is shown
	}
	if i := strings.IndexAny(raw, "?#"); i >= 0 && raw[i] == '?' {
		shown += "?…"
	}
	return fmt.Errorf("streamhttp: the server URL %q is malformed: %s", shown, reason)
}

// urlWithoutSecrets is the text of a URL that may not parse, without its
// user info, query and fragment: what comes after the last "@" (the user
// info's end) and before the first "?" or "#". ok is false when that is
// ambiguous: an "@" after the first "?" or "#" may be in the query, or the
// "?" in a password.
func urlWithoutSecrets(raw string) (string, bool) {
	end := strings.IndexAny(raw, "?#")
	if end < 0 {
		end = len(raw)
	}
	at := strings.LastIndexByte(raw, '@')
	if at < 0 {
		return raw[:end], true
	}
	if at > end {
		return "", false
	}
	if i := strings.Index(raw, "//"); i >= 0 && i < at {
		return raw[:i+2] + raw[at+1:end], true
	}
	return raw[at+1 : end], true
}

// unquoted is an error message without the Go-quoted strings in it, such
// as the parts of a URL url.Parse quotes.
func unquoted(msg string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '"')
		if i < 0 {
			b.WriteString(msg)
			break
		}
		b.WriteString(msg[:i])
		if q, err := strconv.QuotedPrefix(msg[i:]); err == nil {
			msg = msg[i+len(q):]
		} else {
			msg = "" // an unterminated quote: drop the rest
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
