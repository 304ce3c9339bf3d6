#!/usr/bin/env bash
# Builds the README's first Go example as a newcomer would: pasted into a
# module of its own that points at this repository with a replace.
set -euo pipefail
repo=$(pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
awk '/^```go$/ {on=1; next} on && /^```$/ {exit} on {print}' README.md > "$dir/main.go"
if ! grep -q '^package main' "$dir/main.go"; then
  echo "README: the first Go example is not a whole program"; exit 1
fi
cat > "$dir/go.mod" <<MOD
module example.com/readme

go 1.23

require github.com/plainmcp/plainmcp v0.0.0

replace github.com/plainmcp/plainmcp => $repo
MOD
cp go.sum "$dir/go.sum"
(cd "$dir" && go build -o /dev/null . && go vet .)
echo "README example: builds"
