package main

import (
	"bytes"
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkHTTPTable/seq/handshake-json-2      	    2000	    300000 ns/op	      3000 calls/s	     90.00 allocs/call
BenchmarkHTTPTableFloor/seq/handshake-json-2 	    2000	    250000 ns/op	      4000 calls/s	     80.00 allocs/call
BenchmarkHTTPTableFloor/seq/handshake-json-2 	    2000	    250000 ns/op	      3000 calls/s	     80.00 allocs/call
BenchmarkHTTPTable/seq/handshake-json-2      	    2000	    300000 ns/op	      3300 calls/s	     90.00 allocs/call
BenchmarkHTTPTable/seq/handshake-json-2      	    2000	    300000 ns/op	      1000 calls/s	     90.00 allocs/call
BenchmarkHTTPTableFloor/seq/handshake-json-2 	    2000	    250000 ns/op	      2000 calls/s	     80.00 allocs/call
--- FAIL: BenchmarkHTTPTable/in8/handshake-json
PASS
`

// Each round's run is divided by the same round's floor, and the median
// of those ratios is the cell: 0.75, 1.1 and 0.5 give 0.75 (the ratio of
// the medians, 3000 / 3000, would be 1.00).
func TestRatioPairsRounds(t *testing.T) {
	rs, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cell cell
		want float64
		n    int
		ok   bool
	}{
		{cell{"seq", "calls/s"}, 0.75, 3, true},
		{cell{"seq", "allocs/call"}, 90.0 / 80, 3, true},
		{cell{"seq", "B/call"}, 0, 0, false},
		{cell{"in8", "calls/s"}, 0, 0, false},
	} {
		got, n, ok := rs.ratio(tc.cell, "handshake-json")
		if ok != tc.ok || n != tc.n || (ok && (got < tc.want-1e-9 || got > tc.want+1e-9)) {
			t.Errorf("%v: %v over %d rounds (%v), want %v over %d (%v)", tc.cell, got, n, ok, tc.want, tc.n, tc.ok)
		}
	}
	var out bytes.Buffer
	printTable(&out, rs)
	if !strings.Contains(out.String(), "| sequential calls/s | 0.75× | –× |") {
		t.Errorf("table:\n%s", out.String())
	}
}

// parse never panics, and what it keeps is a run of a table benchmark.
func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add("BenchmarkHTTPTable/x-2 1 2 calls/s 3")
	f.Fuzz(func(t *testing.T, in string) {
		rs, err := parse(strings.NewReader(in))
		if err != nil {
			return
		}
		for name := range rs {
			if !strings.HasPrefix(name, "BenchmarkHTTPTable") {
				t.Fatalf("kept %q", name)
			}
		}
		printTable(&bytes.Buffer{}, rs)
	})
}
