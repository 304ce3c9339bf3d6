package toolreg

import (
	"context"
	"fmt"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/memdemo"
)

// demoToolCount is how many tools the demo server lists before any extra.
const demoToolCount = 13

// BenchmarkRegistryCall routes mcp__s__echo through a registry holding 10
// (the demo server's 12) or 10,000 tools, to an in-memory demo server and back. Routing is one
// map lookup, so the two take the same time: the rest is the round trip.
func BenchmarkRegistryCall(b *testing.B) {
	for _, total := range []int{10, 10_000} {
		b.Run(fmt.Sprintf("tools=%d", max(total, demoToolCount)), func(b *testing.B) {
			m := &inMemory{memdemo.Servers{Extra: map[string]int{"s": max(total-demoToolCount, 0)}, PageSize: 1000}}
			r := newInMemory(b, m, nil, "s")
			ctx := context.Background()
			tools, err := r.Tools(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if len(tools) != max(total, demoToolCount) {
				b.Fatalf("%d tools listed, want %d", len(tools), total)
			}
			args := map[string]string{"text": "hi"}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := r.Call(ctx, "mcp__s__echo", args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRegistryTools lists 10,000 tools across 20 servers of 500
// each: "fresh" asks all 20 servers again (every listing stale, pages of
// 100), "cached" only names the cached listings anew.
func BenchmarkRegistryTools(b *testing.B) {
	const servers, perServer = 20, 500
	for _, fresh := range []bool{true, false} {
		name := "cached"
		if fresh {
			name = "fresh"
		}
		b.Run(name, func(b *testing.B) {
			m := &inMemory{memdemo.Servers{Extra: map[string]int{}, PageSize: 100}}
			var names []string
			for i := range servers {
				n := fmt.Sprintf("server%02d", i)
				names = append(names, n)
				m.Extra[n] = perServer - demoToolCount
			}
			r := newInMemory(b, m, nil, names...)
			ctx := context.Background()
			tools, err := r.Tools(ctx)
			if err != nil || len(tools) != servers*perServer {
				b.Fatalf("%d tools, %v", len(tools), err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if fresh {
					for _, s := range r.snapshot() {
						s.markStale("tools")
					}
				}
				tools, err := r.Tools(ctx)
				if err != nil || len(tools) != servers*perServer {
					b.Fatalf("%d tools, %v", len(tools), err)
				}
			}
		})
	}
}
