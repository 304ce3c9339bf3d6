package main

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/toolreg"
)

// TestEraCacheKeepsAnsweringServersProbing: a server that answers the
// probe (here, that it does not know the method) is never pinned.
func TestEraCacheKeepsAnsweringServersProbing(t *testing.T) {
	dir := demoDir(t)
	runIn(t, dir, "", "--server", "demo", "tools").want(t, exitOK)
	r := runIn(t, dir, "", "--trace", "--server", "demo", "tools")
	if !strings.Contains(r.stderr, `"method":"server/discover"`) {
		t.Errorf("an answering server was pinned:\n%s", r.stderr)
	}
}

// TestEraCacheDialsTheEraNotAVersion: a remembered server is dialed in the
// handshake era with no version pinned; one that refuses the handshake is
// dialed again to be probed, and forgotten; one that did not start is not
// dialed twice.
func TestEraCacheDialsTheEraNotAVersion(t *testing.T) {
	refused := jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "no initialize here")
	for _, tc := range []struct {
		name      string
		first     error
		wantDials []mcpclient.Era
		forgotten bool
	}{
		{"answers", nil, []mcpclient.Era{mcpclient.EraHandshake}, false},
		{"refuses the handshake", refused, []mcpclient.Era{mcpclient.EraHandshake, 0}, true},
		{"speaks no version of ours", mcpclient.ErrUnsupportedVersion, []mcpclient.Era{mcpclient.EraHandshake, 0}, true},
		{"does not start", errors.New("exec: no such file"), []mcpclient.Era{mcpclient.EraHandshake}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := &toolreg.ServerConfig{Name: "s", Command: "srv"}
			c := loadEraCache("")
			c.seen[fingerprint(sc)] = time.Now()
			c.pin(&toolreg.Config{Servers: []*toolreg.ServerConfig{sc}}, "")
			var dials []mcpclient.Era
			dial := c.dial(func(_ context.Context, _ *toolreg.ServerConfig, o *mcpclient.Options) (*mcpclient.Session, error) {
				dials = append(dials, o.Era)
				if o.ProtocolVersion != "" {
					t.Errorf("dialed with version %q pinned", o.ProtocolVersion)
				}
				if len(dials) == 1 {
					return nil, tc.first
				}
				return nil, nil
			})
			dial(context.Background(), sc, &mcpclient.Options{})
			if !slices.Equal(dials, tc.wantDials) {
				t.Errorf("dialed in eras %v, want %v", dials, tc.wantDials)
			}
			if _, pinned := c.pinned["s"]; pinned == tc.forgotten {
				t.Errorf("still pinned: %v, want %v", pinned, !tc.forgotten)
			}
		})
	}
}
