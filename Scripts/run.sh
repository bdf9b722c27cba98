#!/usr/bin/env bash
# Sets up and starts the Forager REPL on its default store (a SQLite file in
# $XDG_DATA_HOME/forager, or ~/.local/share/forager). Arguments go to `forager`.
# FORAGER_BUILD=release builds an optimized binary (slower to build the first time).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
configuration="${FORAGER_BUILD:-debug}"
swift build -c "$configuration" --product forager >&2
exec "$(swift build -c "$configuration" --show-bin-path)/forager" "$@"
