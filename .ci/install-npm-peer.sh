#!/usr/bin/env bash
# Installs one pinned npm package that the end-to-end tests run, into a cache
# directory outside the repository, unless that exact version is there already.
# The Go tests do the same on first use; CI calls this first so a test run never
# waits on npm.
#
#   install-npm-peer.sh PACKAGE VERSION DIR
set -euo pipefail
pkg="$1" version="$2" dir="$3"
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
