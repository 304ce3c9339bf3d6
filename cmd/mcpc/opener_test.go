package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/safeurl"
)

// The opener refuses, before it starts anything, every URL but https and
// loopback http, whoever built it.
func TestOpenerRefusesUnsafeURLs(t *testing.T) {
	for _, u := range []string{
		"javascript:alert(document.cookie)",
		"file:///etc/passwd",
		"data:text/html,<script>alert(1)</script>",
		"vscode://vscode.git/clone?url=https://evil.example",
		"ms-settings:",
		"http://as.evil.example/authorize",
		"https://as.example@evil.example/",
		"/relative",
		"",
	} {
		err := openBrowser(u)
		if !errors.Is(err, safeurl.ErrUnsafe) {
			t.Errorf("openBrowser(%q) = %v, want a refusal", u, err)
			continue
		}
		if strings.Contains(err.Error(), "evil") || strings.Contains(err.Error(), "alert") {
			t.Errorf("the refusal quotes the URL: %v", err)
		}
	}
}
