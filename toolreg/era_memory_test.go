package toolreg

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// TestReconnectRemembersTheHandshakeEra: a server whose last session
// spoke the handshake era is dialled in it again, without the probe; if it
// then refuses, the registry forgets the era and probes, and a pinned era
// or version is never overridden.
func TestReconnectRemembersTheHandshakeEra(t *testing.T) {
	m := &inMemory{}
	var mu sync.Mutex
	var eras []mcpclient.Era
	refuse := false
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		mu.Lock()
		eras = append(eras, opts.Era)
		no := refuse && opts.Era == mcpclient.EraHandshake
		mu.Unlock()
		if no {
			return nil, errors.New("initialize refused: a server of the 2026 era now")
		}
		return m.dial(ctx, sc, opts)
	}
	r := newInMemory(t, m, &Options{Dial: dial}, "demo")
	seen := func() []mcpclient.Era {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(eras)
	}
	if err := r.Reconnect(ctx10(t), "demo"); err != nil {
		t.Fatal(err)
	}
	want := []mcpclient.Era{0, mcpclient.EraHandshake}
	if got := seen(); !slices.Equal(got, want) {
		t.Fatalf("dialled in eras %v, want %v (probed first, remembered on the reconnect)", got, want)
	}
	mu.Lock()
	refuse = true
	mu.Unlock()
	if err := r.Reconnect(ctx10(t), "demo"); err != nil {
		t.Fatal(err)
	}
	want = append(want, mcpclient.EraHandshake, 0)
	if got := seen(); !slices.Equal(got, want) {
		t.Fatalf("dialled in eras %v, want %v (the refused era forgotten, probed again)", got, want)
	}
}
