package mcpclient

import (
	"testing"

	"github.com/plainmcp/plainmcp/internal/safe"
	"github.com/plainmcp/plainmcp/internal/testkit/fakemcp"
)

// What a server answers to server/discover reaches Connect's error only
// escaped: a version string or a member holding ESC, a C1 control or a
// bidi override must not act on the terminal the error is printed to.
func TestConnectErrorQuotesTheServerPrintably(t *testing.T) {
	for _, tc := range []struct {
		name, discover string
		opts           Options
	}{
		{"unknown version with ESC", `{"supportedVersions":["\u001b]0;owned\u0007"],"capabilities":{}}`, Options{}},
		{"handshake version with CSI", `{"supportedVersions":["2025-11-25","\u009b2J"],"capabilities":{}}`, Options{Era: EraStateless}},
		{"raw bidi override", "{\"note\":\"\u202eevil\"}", Options{Era: EraStateless}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkGoroutines(t)
			f := fakemcp.New(t)
			f.Handle("server/discover", answer(tc.discover))
			opts := tc.opts
			s, err := Connect(ctx5s(t), f.Start(t), &opts)
			if err == nil {
				s.Close()
				t.Fatal("Connect succeeded")
			}
			if msg := err.Error(); safe.Printable(msg) != msg {
				t.Errorf("the error holds characters a terminal acts on: %q", msg)
			}
		})
	}
}
