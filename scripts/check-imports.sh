#!/usr/bin/env bash
# Checks the import rules of plainmcp:
#  1. non-test code imports the standard library and this module only;
#  2. the layers import one way, tests included:
#     jsonrpc <- transport <- mcpclient <- toolreg
#       <- toolreg/remote (with transport/streamhttp) <- bridge <- cmd,
#     and toolreg/mcpjson, the config format, <- toolreg: it links no
#     session, transport or JSON-RPC
#     examples/stdio, a top layer like cmd, shows the bare client: mcpclient
#     and transport, not the layers above them, nor the opt-in packages
#     mcpclient/task, mcpclient/skill and mcpclient/apps
#     (internal/testkit/leakcheck, a std-only test helper, may be used by any of them)
#     secret, a leaf any layer may hold secrets in, internal/redact, which
#     takes them out of text a peer sent back, and internal/safe and
#     internal/safeurl, the checks on untrusted text and URLs, import none
#     of them, nor does
#     internal/jsonscan, the JSON lexer under jsonrpc, nor
#     internal/rpcwire, the engine under jsonrpc that transport, streamhttp
#     and mcpclient share (it imports none of them)
#  3. the packages that exist for tests (internal/testkit: fakes, leak and read checks) are
#     linked by tests alone, never by a library or a program
set -euo pipefail
mod=$(go list -m)
fail=0

# 1. Standard library only outside tests.
extra=$(go list -deps -f '{{if not .Standard}}{{.ImportPath}}{{end}}' ./... | grep -v "^$mod" || true)
if [ -n "$extra" ]; then
  echo "non-test code imports packages outside the standard library:"; echo "$extra"; fail=1
fi

# 2. Layering. For each layer, the packages it must never reach, even from
# its tests (go list -test includes test-only imports).
check() {
  local pkg=$1; shift
  [ -d "$pkg" ] || return 0
  local deps
  deps=$(go list -deps -test -f '{{.ImportPath}}' "./$pkg/..." | sed 's/ \[.*//' | sort -u)
  for banned in "$@"; do
    if grep -qx "$mod/$banned\(/.*\)\?" <<<"$deps" || grep -q "^$mod/$banned/" <<<"$deps"; then
      echo "$pkg must not import $banned (directly, indirectly or in tests)"; fail=1
    fi
  done
}
check internal/jsonscan jsonrpc transport mcpclient toolreg bridge cmd internal/demoserver
check internal/rpcwire jsonrpc transport mcpclient toolreg bridge cmd internal/demoserver
check internal/safe jsonrpc transport mcpclient toolreg bridge cmd internal/demoserver
check internal/safeurl jsonrpc transport mcpclient toolreg bridge cmd internal/demoserver
check internal/redact jsonrpc transport mcpclient toolreg bridge cmd internal/demoserver
check secret jsonrpc transport mcpclient toolreg bridge cmd internal/demoserver
check jsonrpc transport mcpclient toolreg bridge cmd internal/demoserver internal/integration
check transport mcpclient toolreg bridge cmd internal/demoserver
check mcpclient toolreg bridge cmd
check toolreg bridge cmd
check bridge cmd
# The tools a Run offers, shared by bridge and mcpc: below bridge.
check internal/offer bridge cmd
check internal/demoserver mcpclient toolreg bridge cmd
check internal/testkit/appserver mcpclient toolreg bridge cmd
check internal/testkit/fakemcp mcpclient toolreg bridge cmd
check internal/testkit/memdemo mcpclient/task mcpclient/skill mcpclient/apps bridge cmd
check examples/stdio toolreg bridge cmd mcpclient/task mcpclient/skill mcpclient/apps
# A host on the registry links an extension only if it asks for it (mcpc
# asks for all).
check examples/stdiohost bridge cmd mcpclient/task mcpclient/skill mcpclient/apps toolreg/skills toolreg/ui
# mcpc web's page lives in cmd/mcpc/internal/webui: Go's internal rule
# keeps it to mcpc, so no check is needed here.

# 3. Test-only packages. go list -deps without -test: what non-test code links.
testonly='internal/testkit/[^ ]*'
linked=$(go list -f '{{.ImportPath}}: {{join .Deps " "}}' ./... | grep -v "^$mod/$testonly:" |
  awk -v re="^$mod/$testonly\$" -F': ' '{n = split($2, d, " "); for (i = 1; i <= n; i++) if (d[i] ~ re) print $1 " links " d[i]}')
if [ -n "$linked" ]; then
  echo "non-test code links a package that exists for tests:"; echo "$linked"; fail=1
fi

# The registry's three parts: the config format is network-free and knows
# no registry; the registry itself reaches no HTTP (its HTTP dialing is
# toolreg/remote's). These name single packages, and ban a package alone
# or, ending in /..., a tree.
checkone() {
  local pkg=$1; shift
  local deps
  deps=$(go list -deps -test -f '{{.ImportPath}}' "./$pkg" | sed 's/ \[.*//' | sort -u)
  for banned in "$@"; do
    local re="$mod/$banned"
    [[ $banned == */... ]] && re="$mod/${banned%/...}\(/.*\)\?"
    if grep -qx "$re" <<<"$deps"; then
      echo "$pkg must not import $banned (directly, indirectly or in tests)"; fail=1
    fi
  done
}
# The config format links no session, transport or JSON-RPC either: it
# takes the protocol versions from the leaf internal/mcpversion.
checkone toolreg/mcpjson toolreg toolreg/remote mcpclient/... transport/... jsonrpc/... internal/rpcwire bridge/... cmd/...
checkone internal/mcpversion jsonrpc/... transport/... mcpclient/... toolreg/...
checkone internal/mcpext jsonrpc/... transport/... mcpclient/... toolreg/...
# The registry's core opts in to no extension: tasks come with the host's
# Options.Session.Tasks, skills and MCP Apps with toolreg/skills and
# toolreg/ui, which a host calls. Neither the core nor a stdio-only host
# on it may reach them.
checkone toolreg toolreg/remote transport/streamhttp/... mcpclient/task mcpclient/apps mcpclient/skill toolreg/skills toolreg/ui

[ $fail -eq 0 ] && echo "imports: ok"
exit $fail
