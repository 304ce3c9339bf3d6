package toolreg

import (
	"context"
	"fmt"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/memdemo"
)

// BenchmarkSearchTools searches 10,000 tools of 100 servers: "query" is
// one search of listings that did not change; "one-server-changed"
// marks one server's listing stale first, so each search lists that
// server again and indexes it alone, the 99 others as they were.
func BenchmarkSearchTools(b *testing.B) {
	const servers, perServer = 100, 100
	for _, changed := range []bool{false, true} {
		name := "query"
		if changed {
			name = "one-server-changed"
		}
		b.Run(name, func(b *testing.B) {
			m := &inMemory{memdemo.Servers{Extra: map[string]int{}, PageSize: 1000}}
			var names []string
			for i := range servers {
				n := fmt.Sprintf("server%02d", i)
				names = append(names, n)
				m.Extra[n] = perServer - demoToolCount
			}
			r := newInMemory(b, m, nil, names...)
			ctx := context.Background()
			if found, err := r.SearchTools(ctx, "add two numbers", 5); err != nil || len(found) != 5 {
				b.Fatalf("%d found, %v", len(found), err)
			}
			snapshot := r.snapshot()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if changed {
					snapshot[i%servers].markStale("tools")
				}
				if _, err := r.SearchTools(ctx, "add two numbers", 5); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
