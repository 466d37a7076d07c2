#!/usr/bin/env bash
# Installs the pinned reference tokenizers that gen_reference.js and
# bench_reference.js run: npm "tiktoken" (OpenAI's Rust tiktoken compiled to
# WebAssembly, the judge) and "js-tiktoken" (the pure-JS port, a cross-check),
# into a cache outside the repository, unless those versions are there already.
# Prints the NODE_PATH to run the scripts with. Override the location with
# MCPTERM_TIKTOKEN_DIR. Tests never run this; only regenerating fixtures or
# the reference benchmark needs it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
base="${MCPTERM_TIKTOKEN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpterm/tiktoken}"
bash "$here/../../.ci/install-npm-peer.sh" tiktoken 1.0.22 "$base/tiktoken@1.0.22" >&2
bash "$here/../../.ci/install-npm-peer.sh" js-tiktoken 1.0.21 "$base/js-tiktoken@1.0.21" >&2
echo "$base/tiktoken@1.0.22/node_modules:$base/js-tiktoken@1.0.21/node_modules"
