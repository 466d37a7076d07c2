#!/usr/bin/env bash
# The MCP client the gateway's end-to-end tests drive: the official TypeScript
# SDK, pinned (see session/gateway/sdktest). Override the location with MCPTERM_SDK_DIR.
set -euo pipefail
version=1.32.2
exec bash "$(dirname "$0")/../../../.ci/install-npm-peer.sh" @modelcontextprotocol/sdk "$version" \
  "${MCPTERM_SDK_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpterm/peers/sdk@$version}"
