#!/usr/bin/env bash
# Installs the MCP client the gateway's end-to-end tests drive, the official
# TypeScript SDK, pinned, into a cache directory outside the repository. The
# tests do the same on first use (sdk_test.go); CI may call this first so a
# test run never waits on npm. Override the location with MCPTERM_SDK_DIR.
set -euo pipefail
pkg=@modelcontextprotocol/sdk
version=1.32.2
dir="${MCPTERM_SDK_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpterm/peers/sdk@$version}"
installed="$dir/node_modules/$pkg/package.json"
if [ -f "$installed" ] && grep -q "\"version\": *\"$version\"" "$installed"; then
  echo "$pkg@$version already in $dir"
  exit 0
fi
command -v npm >/dev/null || { echo "npm not found: cannot install $pkg@$version" >&2; exit 1; }
mkdir -p "$(dirname "$dir")"
tmp=$(mktemp -d "$(dirname "$dir")/.install-sdk-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
npm install --prefix "$tmp" --no-save --no-audit --no-fund --loglevel=error "$pkg@$version"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
echo "installed $pkg@$version in $dir"
