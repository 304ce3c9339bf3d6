#!/usr/bin/env bash
# Checks what the example programs carry of the opt-in extensions
# (mcpclient/task, mcpclient/apps, mcpclient/skill) in their binaries, the
# linker's view rather than the import graph's (check-imports.sh has
# that one):
#   examples/stdio      no symbol of them at all (it imports none);
#   examples/stdiohost  no code of them beyond a package's initialization
#                       and the equality of a type toolreg's own types hold:
#                       toolreg names apps' and skill's types in its API, so
#                       it imports them, but a host that never reads an
#                       interface or loads a skill runs none of their code,
#                       and the linker leaves it out. Tasks it does not
#                       import (toolreg turns them on only when asked).
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ext="$mod/mcpclient/(task|apps|skill)\."
for prog in stdio stdiohost; do
  go build -o "$tmp/$prog" "./examples/$prog"
  syms=$(go tool nm "$tmp/$prog" | awk '{print $NF}' | grep -E "$ext" || true)
  if [ "$prog" = stdiohost ]; then
    # A package's initialization and generated equality are no feature.
    syms=$(grep -vE "^$mod/mcpclient/(apps|skill)(\.init|\.\.inittask)$|^type:\.eq\.$mod/mcpclient/(apps|skill)\." <<<"$syms" || true)
  fi
  if [ -n "$syms" ]; then
    echo "examples/$prog carries code of an extension it did not ask for:"
    sed 's/^/  /' <<<"$syms" | head -20
    fail=1
  fi
done
[ $fail -eq 0 ] && echo "links: ok"
exit $fail
