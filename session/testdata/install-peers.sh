#!/usr/bin/env bash
# Installs the third-party MCP servers the end-to-end tests run against,
# pinned, into a cache directory outside the repository. The tests do the same
# on first use (session/peers); CI may call this first so a test run never
# waits on npm. Override the location with MCPTERM_PEERS_DIR.
set -euo pipefail
pkg=@modelcontextprotocol/server-everything
version=2026.8.31
dir="${MCPTERM_PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpterm/peers/server-everything@$version}"
installed="$dir/node_modules/$pkg/package.json"
if [ -f "$installed" ] && grep -q "\"version\": *\"$version\"" "$installed"; then
  echo "$pkg@$version already in $dir"
  exit 0
fi
command -v npm >/dev/null || { echo "npm not found: cannot install $pkg@$version" >&2; exit 1; }
mkdir -p "$(dirname "$dir")"
tmp=$(mktemp -d "$(dirname "$dir")/.install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
npm install --prefix "$tmp" --no-save --no-audit --no-fund --loglevel=error "$pkg@$version"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
echo "installed $pkg@$version in $dir"
