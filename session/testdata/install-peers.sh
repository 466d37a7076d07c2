#!/usr/bin/env bash
# The pinned third-party MCP server of the end-to-end tests (see session/peers).
# Override the location with MCPTERM_PEERS_DIR.
set -euo pipefail
version=2026.8.31
exec bash "$(dirname "$0")/../../.ci/install-npm-peer.sh" @modelcontextprotocol/server-everything "$version" \
  "${MCPTERM_PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpterm/peers/server-everything@$version}"
