// Command benchtable turns the output of the HTTP table benchmarks into
// the README's ratio table. It reads `go test -bench` output on stdin —
// BenchmarkHTTPTable/<row>/<column> and BenchmarkHTTPTableFloor/<row>/<column>
// of transport/streamhttp, run several rounds (scripts/bench-http.sh runs
// them interleaved) — pairs the n-th run of each benchmark with the n-th
// run of its floor, takes the ratio plainmcp / floor of the row's
// metric in each round and prints the median of those ratios as a
// Markdown table.
//
// Pairing round by round, rather than dividing medians, is what makes the
// ratios steady on a busy machine: a benchmark and its floor run one
// after the other, under the same load.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// columns are the table's columns, as the benchmarks name them.
var columns = []string{"handshake-json", "handshake-sse", "stateless-json", "stateless-sse"}

// cell is one figure of a table row: a benchmark row and its metric.
type cell struct{ row, metric string }

// rows are the table's rows; a row of several cells prints them with " / ".
var rows = []struct {
	title  string
	cells  []cell
	target string
}{
	{"sequential calls/s", []cell{{"seq", "calls/s"}}, "≥ 1.0×"},
	{"calls/s at 1 / 8 / 64 / 256 in flight", []cell{{"in1", "calls/s"}, {"in8", "calls/s"}, {"in64", "calls/s"}, {"in256", "calls/s"}}, "≥ 1.0×"},
	{"10,000 calls from a cold pool (calls/s / connections)", []cell{{"cold", "calls/s"}, {"cold", "conns/op"}}, "≥ 1.0× / ≤ 1.0×"},
	{"first burst of 256 calls from a cold pool (connections)", []cell{{"burst", "conns/op"}}, "≤ 1.0×"},
	{"bursts of 512 calls, one client (connections / server CPU per call)", []cell{{"bursts512", "conns/op"}, {"bursts512", "srv-cpu-ns/call"}}, "≤ 1.0×"},
	{"client CPU per call (64 in flight)", []cell{{"in64", "cpu-ns/call"}}, "≤ 1.0×"},
	{"server CPU per call, cold-pool phase", []cell{{"cold", "srv-cpu-ns/call"}}, "≤ 1.0×"},
	{"allocations / bytes per call", []cell{{"seq", "allocs/call"}, {"seq", "B/call"}}, "≤ 1.0×"},
	{"bytes allocated per 1 MiB result", []cell{{"big", "B/call"}}, "≤ 1.2×"},
	{"connect (+ tools/list) / close", []cell{{"connect", "connect-ns"}, {"connect", "close-ns"}}, "≤ 1.0×"},
	{"tools/list, 5,000 tools (time)", []cell{{"list5000", "ns/op"}}, "≤ 1.0×"},
}

func main() {
	runs, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	printTable(os.Stdout, runs)
}

// runs holds, for each benchmark name without its GOMAXPROCS suffix, the
// metrics of each of its runs in order.
type runs map[string][]map[string]float64

// parse reads benchmark result lines: a name, an iteration count, then
// pairs of value and unit.
func parse(r io.Reader) (runs, error) {
	out := runs{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "BenchmarkHTTPTable") || len(f)%2 != 0 {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 && !strings.Contains(name[i:], "/") {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		m := map[string]float64{}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %q is no number", f[0], f[i])
			}
			m[f[i+1]] = v
		}
		out[name] = append(out[name], m)
	}
	return out, sc.Err()
}

// ratio is the median over rounds of ours / floor for one cell, and how
// many rounds it had; ok is false when no round had both.
func (rs runs) ratio(c cell, col string) (median float64, n int, ok bool) {
	ours := rs["BenchmarkHTTPTable/"+c.row+"/"+col]
	floor := rs["BenchmarkHTTPTableFloor/"+c.row+"/"+col]
	var ratios []float64
	for i := 0; i < len(ours) && i < len(floor); i++ {
		a, aok := ours[i][c.metric]
		b, bok := floor[i][c.metric]
		switch {
		case !aok || !bok:
		case b == 0 && a == 0:
			ratios = append(ratios, 1)
		case b != 0:
			ratios = append(ratios, a/b)
		}
	}
	if len(ratios) == 0 {
		return 0, 0, false
	}
	sort.Float64s(ratios)
	mid := len(ratios) / 2
	if len(ratios)%2 == 1 {
		return ratios[mid], len(ratios), true
	}
	return (ratios[mid-1] + ratios[mid]) / 2, len(ratios), true
}

func printTable(w io.Writer, rs runs) {
	fmt.Fprintf(w, "| row | %s | target |\n|---|%s---:|\n", strings.Join(columns, " | "), strings.Repeat("---:|", len(columns)))
	rounds := 0
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |", r.title)
		for _, col := range columns {
			var parts []string
			for _, c := range r.cells {
				m, n, ok := rs.ratio(c, col)
				if !ok {
					parts = append(parts, "–")
					continue
				}
				rounds = max(rounds, n)
				parts = append(parts, fmt.Sprintf("%.2f", m))
			}
			fmt.Fprintf(w, " %s× |", strings.Join(parts, " / "))
		}
		fmt.Fprintf(w, " %s |\n", r.target)
	}
	fmt.Fprintf(w, "\nplainmcp / floor, the median of %d rounds (each round runs a benchmark and its floor one after the other).\n", rounds)
}
