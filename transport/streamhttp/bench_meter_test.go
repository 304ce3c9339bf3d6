package streamhttp

import (
	"runtime"
	"testing"
	"time"
)

// meter measures what happens between start and stop: this process's
// allocations and CPU time, and the server's connections and CPU time.
type meter struct {
	b         *testing.B
	srv       *procServer
	url       string
	stateless bool

	mem0, mem1 runtime.MemStats
	cpu0, cpu1 time.Duration
	cpuOK      bool
	st0, st1   serverStats
}

func (m *meter) start() {
	m.st0 = m.srv.stats(m.b)
	runtime.ReadMemStats(&m.mem0)
	m.cpu0, m.cpuOK = processCPU()
	m.b.ReportAllocs()
	m.b.ResetTimer()
}

func (m *meter) stop() {
	m.b.StopTimer()
	m.cpu1, _ = processCPU()
	runtime.ReadMemStats(&m.mem1)
	m.st1 = m.srv.stats(m.b)
}

// report reports the figures per call; calls is how many were made.
func (m *meter) report(calls int) {
	b, n := m.b, float64(calls)
	b.ReportMetric(n/b.Elapsed().Seconds(), "calls/s")
	b.ReportMetric(float64(m.mem1.TotalAlloc-m.mem0.TotalAlloc)/n, "B/call")
	b.ReportMetric(float64(m.mem1.Mallocs-m.mem0.Mallocs)/n, "allocs/call")
	b.ReportMetric(float64(m.st1.Conns-m.st0.Conns)/float64(b.N), "conns/op")
	if m.cpuOK && m.st1.CPU > 0 {
		b.ReportMetric(float64((m.cpu1-m.cpu0).Nanoseconds())/n, "cpu-ns/call")
		b.ReportMetric(float64((m.st1.CPU-m.st0.CPU).Nanoseconds())/n, "srv-cpu-ns/call")
	}
}
