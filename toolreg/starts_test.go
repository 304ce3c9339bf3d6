package toolreg

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// A config of many servers starts them at most maxConcurrentStarts at a
// time, and every one of them still starts.
func TestNewStartsABoundedNumberAtOnce(t *testing.T) {
	m := &inMemory{}
	var mu sync.Mutex
	now, most := 0, 0
	gate := make(chan struct{})
	var open sync.Once
	dial := func(ctx context.Context, sc *ServerConfig, opts *mcpclient.Options) (*mcpclient.Session, error) {
		mu.Lock()
		now++
		most = max(most, now)
		full := now == maxConcurrentStarts
		mu.Unlock()
		if full {
			open.Do(func() { close(gate) }) // as many as may start at once are starting
		}
		<-gate
		defer func() { mu.Lock(); now--; mu.Unlock() }()
		return m.dial(ctx, sc, opts)
	}
	var names []string
	for i := range 3 * maxConcurrentStarts {
		names = append(names, fmt.Sprintf("s%03d", i))
	}
	r := newInMemory(t, m, &Options{Dial: dial}, names...)
	if most != maxConcurrentStarts {
		t.Errorf("%d servers started at once, want at most (and, here, exactly) %d", most, maxConcurrentStarts)
	}
	for _, st := range r.Servers() {
		if st.State != StateConnected {
			t.Errorf("%s: %s", st.Name, st.State)
		}
	}
}
