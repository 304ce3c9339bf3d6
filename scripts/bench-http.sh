#!/usr/bin/env bash
# The HTTP ratio table of the README: every row of BenchmarkHTTPTable
# (transport/streamhttp/bench_table_test.go) beside its floor, each pair
# run one after the other (which goes first alternates), ROUNDS rounds,
# then the median ratio plainmcp / floor of each cell as Markdown
# (internal/devtools/benchtable). The raw output is kept in BENCH_OUT if set;
# BENCH_BIN runs a test binary built before (go test -c) instead of
# building one, to measure another version of the code.
#
#   make bench-http                 # 3 rounds, about 5–10 minutes on 2 cores
#   ROUNDS=5 make bench-http
#   ROWS="seq cold" make bench-http # some rows only
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
ROWS=${ROWS:-"seq in1 in8 in64 in256 cold burst bursts512 big connect list5000"}
COLS="handshake-json handshake-sse stateless-json stateless-sse"

# Iterations per row: enough calls to steady the figure, few enough that a
# full run fits in minutes. cold makes 10,000 calls an iteration.
benchtime() {
  case $1 in
    seq | in1) echo 2000x ;;
    in8) echo 4000x ;;
    in64 | in256) echo 10000x ;;
    cold) echo 1x ;;
    burst | bursts512) echo 10x ;;
    big) echo 40x ;;
    connect) echo 100x ;;
    list5000) echo 10x ;;
    *) echo "bench-http: unknown row $1" >&2; exit 2 ;;
  esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${BENCH_BIN:-$tmp/streamhttp.test}
[ -n "${BENCH_BIN:-}" ] || go test -c -o "$bin" ./transport/streamhttp
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
out=${BENCH_OUT:-$tmp/out.txt}
: >"$out"
flip=0
for round in $(seq "$ROUNDS"); do
  echo "bench-http: round $round of $ROUNDS" >&2
  for row in $ROWS; do
    for col in $COLS; do
      sides="HTTPTable HTTPTableFloor"
      [ $flip = 1 ] && sides="HTTPTableFloor HTTPTable"
      flip=$((1 - flip))
      for side in $sides; do
        (cd transport/streamhttp && "$bin" -test.run '^$' \
          -test.bench "^Benchmark$side\$/^$row\$/^$col\$" -test.benchtime "$(benchtime "$row")") >>"$out"
      done
    done
  done
done
go run ./internal/devtools/benchtable <"$out"
