#!/usr/bin/env bash
# Installs the system libraries Forager builds against (Debian/Ubuntu), when missing:
# SQLite and GNU readline headers, tmux for the interactive REPL tests, and PostgreSQL for
# the sync server's integration tests (Docs/SERVER.md) and Scripts/server.sh, zlib for
# ZIPFoundation (Paprika archives), and python3-icalendar, the parser the meal calendar
# export is checked with (MealExportCommandTests).
set -euo pipefail

packages=(libsqlite3-dev libreadline-dev zlib1g-dev tmux postgresql python3-icalendar)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]} > 0)); then
  echo "setup: installing ${missing[*]}" >&2
  if [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "setup: please install ${missing[*]} (apt-get install ${missing[*]})" >&2
    exit 1
  fi
fi
# The tests find PostgreSQL's server programs the same way (TemporaryPostgres.binDirectory):
# the newest /usr/lib/postgresql/*/bin with initdb and pg_ctl, or FORAGER_PG_BIN.
if [[ -z "${FORAGER_PG_BIN:-}" ]] && ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  echo "setup: postgresql is installed but no /usr/lib/postgresql/*/bin/initdb was found (set FORAGER_PG_BIN)" >&2
  exit 1
fi
command -v swift >/dev/null 2>&1 || { echo "setup: the Swift toolchain (swift) is not on PATH" >&2; exit 1; }
