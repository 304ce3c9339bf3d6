#!/usr/bin/env bash
# make size: what plainmcp costs a stdio-only program. Builds
#   ours   examples/stdio, on mcpclient and transport
#   floor  internal/devtools/sizefloor, the same job by hand on os/exec, bufio and
#          encoding/json
# stripped, runs each once against the demo server (add 2 + 40 must print
# 42), prints both sizes and ours/floor, and fails if that ratio is above
# SIZE_LIMIT (default 1.20: 1.19× once log/slog, errors.As's reflection,
# a string sort and the HTTP-only x-mcp-header rules left the stdio path;
# the limit only comes down).
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${SIZE_LIMIT:-1.20}
awk -v l="$limit" 'BEGIN { exit !(l ~ /^[0-9]+(\.[0-9]+)?$/) }' ||
  { echo "size: SIZE_LIMIT=$limit is not a number"; exit 2; }

# The floor is hand-written on the standard library: none of this module.
mod=$(go list -m)
if go list -deps ./internal/devtools/sizefloor | grep "^$mod/" | grep -vx "$mod/internal/devtools/sizefloor"; then
  echo "size: internal/devtools/sizefloor must import none of the packages above"; exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p bin
go build -o bin/ ./cmd/mcp-demo-server
CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$tmp/ours" ./examples/stdio
CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$tmp/floor" ./internal/devtools/sizefloor

# Both must work before their sizes mean anything.
for b in ours floor; do
  if ! out=$("$tmp/$b" -tool add -args '{"a":2,"b":40}' -- bin/mcp-demo-server 2>"$tmp/$b.err"); then
    echo "size: $b failed against bin/mcp-demo-server:"; cat "$tmp/$b.err"; exit 1
  fi
  if [[ $out != *42* ]]; then
    echo "size: $b printed '$out', not 42"; exit 1
  fi
done
echo "both clients called add(2, 40) on bin/mcp-demo-server and printed 42"

ours=$(wc -c <"$tmp/ours")
floor=$(wc -c <"$tmp/floor")
awk -v o="$ours" -v f="$floor" -v l="$limit" -v os="$(go env GOOS)/$(go env GOARCH)" 'BEGIN {
  r = o / f
  printf "ours  (examples/stdio)      %6.2f MiB\n", o / 1048576
  printf "floor (internal/devtools/sizefloor)  %6.2f MiB\n", f / 1048576
  printf "ratio ours/floor            %6.2f (limit %s, %s, CGO_ENABLED=0 -trimpath -s -w)\n", r, l, os
  if (r > l) {
    printf "size: ours is %.2fx the floor, above the %s limit\n", r, l
    exit 1
  }
  print "size: ok"
}'
