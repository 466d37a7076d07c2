#!/usr/bin/env bash
# The pinned third-party MCP servers of the end-to-end tests (see session/peers),
# each in NAME@VERSION under the peers directory. Override it with MCPTERM_PEERS_DIR.
set -euo pipefail
version=2026.8.31
root="${MCPTERM_PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpterm/peers}"
for name in server-everything server-filesystem server-memory; do
  bash "$(dirname "$0")/../../.ci/install-npm-peer.sh" "@modelcontextprotocol/$name" "$version" "$root/$name@$version"
done
