#!/usr/bin/env bash
# Sets up and starts the Forager REPL on its default store (a SQLite file in
# $XDG_DATA_HOME/forager, or ~/.local/share/forager). Arguments go to `forager`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/setup.sh
swift build -c release --product forager >&2
exec "$(swift build -c release --show-bin-path)/forager" "$@"
