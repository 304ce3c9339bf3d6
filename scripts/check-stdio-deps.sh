#!/usr/bin/env bash
# Checks that a stdio-only program links no network code: the non-test
# dependencies of examples/stdio (one session), examples/stdiohost (a
# registry of many stdio servers), and of the packages mcpclient,
# mcpclient/task, transport, toolreg and toolreg/mcpjson themselves, must
# not include net, net/..., crypto/tls... or crypto/x509... (the sign of TLS), save
# net/url and net/netip, which parse strings and open nothing (the config
# format checks a server's URL with net/url). The HTTP transports live in
# a subpackage of transport, and the registry's HTTP dialing in
# toolreg/remote, which only programs that dial HTTP import. Checked for
# the host and for every platform make check cross-builds.
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
pkgs=(./examples/stdio ./examples/stdiohost ./mcpclient ./mcpclient/task ./transport ./toolreg ./toolreg/mcpjson)
banned='^(net|crypto/tls|crypto/x509)(/|$)'
allowed='net/url|net/netip'
fail=0
targets=$(printf '%s\n' "$(go env GOOS)/$(go env GOARCH)" linux/amd64 darwin/arm64 windows/amd64 | awk '!seen[$0]++')
for target in $targets; do
  for pkg in "${pkgs[@]}"; do
    [ -d "$pkg" ] || continue
    deps=$(GOOS=${target%/*} GOARCH=${target#*/} go list -deps \
      -f '{{.ImportPath}}{{range .Imports}} {{.}}{{end}}' "$pkg")
    bad=$(cut -d' ' -f1 <<<"$deps" | grep -E "$banned" | grep -vxE "$allowed" || true)
    if [ -n "$bad" ]; then
      # The packages of this module that import one of them directly.
      via=$(grep "^$mod" <<<"$deps" | awk -v re="$banned" '{
        for (i = 2; i <= NF; i++) if ($i ~ re && $i != "net/url" && $i != "net/netip") { printf "%s%s", sep, $1; sep = " "; break } }' || true)
      echo "$pkg links network code on $target:" $bad
      echo "  imported directly by: $via"
      fail=1
    fi
  done
done
[ $fail -eq 0 ] && echo "stdio deps: ok"
exit $fail
