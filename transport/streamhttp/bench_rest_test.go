package streamhttp

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// restSessions is how many idle sessions BenchmarkHTTPSessionsAtRest holds
// at once, as a host holds one per configured server.
const restSessions = 50

// BenchmarkHTTPSessionsAtRest and BenchmarkHTTPSessionsAtRestFloor measure
// what an idle session costs a host that keeps many open: each iteration
// opens restSessions sessions to the bench server (connect, one call) and
// counts, with all of them open and idle, the goroutines and the bytes of
// heap and stack each one holds, then closes them. Both sides keep one
// pooled connection per session, whose two net/http goroutines count in
// both.
func BenchmarkHTTPSessionsAtRest(b *testing.B) { benchAtRest(b, oursDialer) }

// BenchmarkHTTPSessionsAtRestFloor is its floor: net/http and
// encoding/json alone (bench_floor_test.go).
func BenchmarkHTTPSessionsAtRestFloor(b *testing.B) { benchAtRest(b, floorDialer) }

func benchAtRest(b *testing.B, dial tableDialer) {
	for _, col := range tableColumns {
		b.Run(col.name, func(b *testing.B) {
			srv := startProcServer(b, col.cfg)
			var goroutines, bytes float64
			b.ReportAllocs()
			for range b.N {
				g, n := holdSessions(b, srv.URL, col.cfg.Stateless, dial)
				goroutines, bytes = goroutines+g, bytes+n
			}
			b.ReportMetric(goroutines/float64(b.N), "goroutines/session")
			b.ReportMetric(bytes/float64(b.N), "B/session")
		})
	}
}

// holdSessions opens restSessions sessions, measures what each holds while
// they idle, and closes them.
func holdSessions(b *testing.B, url string, stateless bool, dial tableDialer) (goroutines, bytes float64) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	g0, m0 := restingState()
	clients := make([]tableClient, 0, restSessions)
	defer func() {
		for _, c := range clients {
			c.close()
		}
	}()
	for range restSessions {
		c, err := dial(ctx, url, stateless)
		if err == nil {
			clients = append(clients, c)
			err = c.callTool(ctx, "echo", len(benchText))
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	g1, m1 := restingState()
	return float64(g1-g0) / restSessions, float64(int64(m1)-int64(m0)) / restSessions
}

// restingState is the goroutine count and the heap and stack in use, once
// the goroutines an answer woke have parked again and a collection ran.
func restingState() (int, uint64) {
	time.Sleep(20 * time.Millisecond) // the subject is what stays at rest: let the answers' goroutines park
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return runtime.NumGoroutine(), ms.HeapAlloc + ms.StackInuse
}
