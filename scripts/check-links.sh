#!/usr/bin/env bash
# Checks that the example programs carry no symbol of the opt-in
# extensions (mcpclient/task, mcpclient/apps, mcpclient/skill) in their
# binaries, the linker's view rather than the import graph's
# (check-imports.sh has that one): examples/stdio, the bare client, and
# examples/stdiohost, a stdio host on toolreg, ask for none of them, and
# toolreg's core imports none (its skills and MCP Apps live in
# toolreg/skills and toolreg/ui, tasks come with Options.Session.Tasks).
# Nor what a stdio program need not carry, which make size would only
# see as a ratio: log/slog (its init links its handlers and package log;
# plainmcp's options take internal/logging's interface instead),
# errors.As's reflection (internal/errtype does without) and the
# Streamable HTTP x-mcp-header rules (internal/paramheader, lent to the
# session by streamhttp).
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ext="$mod/(mcpclient/(task|apps|skill)|toolreg/(skills|ui)|internal/paramheader)\.|^log/slog\.|^errors\.As$"
for prog in stdio stdiohost; do
  go build -o "$tmp/$prog" "./examples/$prog"
  syms=$(go tool nm "$tmp/$prog" | awk '{print $NF}' | grep -E "$ext" || true)
  if [ -n "$syms" ]; then
    echo "examples/$prog carries code it did not ask for (an extension, log/slog, errors.As, the HTTP header rules):"
    sed 's/^/  /' <<<"$syms" | head -20
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "links: ok"
exit $fail
