package streamhttp

import (
	"encoding/base64"
	"strings"
)

// encodeHeaderValue makes s safe as the value of an Mcp-Name or
// Mcp-Param-{Name} header (2026-07-28): plain visible ASCII with inner
// spaces goes as is; anything else — non-ASCII, control characters,
// leading or trailing whitespace, or text that looks like the encoding
// itself — goes as "=?base64?<base64 of the UTF-8>?=".
func encodeHeaderValue(s string) string {
	if isPlainHeaderValue(s) {
		return s
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}

func isPlainHeaderValue(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[0] == '\t' || s[len(s)-1] == ' ' || s[len(s)-1] == '\t' {
		return false
	}
	if strings.HasPrefix(s, "=?base64?") && strings.HasSuffix(s, "?=") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}
