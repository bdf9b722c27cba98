#!/usr/bin/env bash
# Starts forager-server on loopback over PostgreSQL (Docs/SERVER.md).
#
#   Scripts/server.sh                  # a cluster in ${FORAGER_SERVER_DATA:-~/.local/share/forager-server}
#   DATABASE_URL=postgres://… Scripts/server.sh   # an existing database instead
#   PORT=9090 Scripts/server.sh        # another port (default 8080)
#
# Installs PostgreSQL with apt-get when missing, creates the cluster and database on first
# run (as root, the cluster runs as the 'postgres' user: PostgreSQL refuses root), sets up
# or upgrades the schema, builds forager-server and runs it until Ctrl-C, which also stops
# the cluster it started.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${PORT:-8080}"
scratch="${FORAGER_SCRATCH_PATH:-.build}"

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "server: installing PostgreSQL" >&2
  if [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql
  fi
fi
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"

started_cluster=""
as_server() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [[ -z "${DATABASE_URL:-}" ]]; then
  data="${FORAGER_SERVER_DATA:-${XDG_DATA_HOME:-$HOME/.local/share}/forager-server}"
  pg_port="${PG_PORT:-55432}"
  mkdir -p "$data"
  if [[ $(id -u) -eq 0 ]]; then chown postgres "$data"; fi
  if [[ ! -f "$data/pgdata/PG_VERSION" ]]; then
    echo "server: creating a PostgreSQL cluster in $data/pgdata" >&2
    as_server "$bin/initdb" -D "$data/pgdata" -A trust -U forager -E UTF8 >/dev/null
  fi
  if ! as_server "$bin/pg_ctl" -D "$data/pgdata" status >/dev/null 2>&1; then
    as_server "$bin/pg_ctl" -D "$data/pgdata" -l "$data/postgres.log" -w \
      -o "-p $pg_port -k $data -c listen_addresses=127.0.0.1" start >/dev/null
    started_cluster="$data/pgdata"
  fi
  "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U forager -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'forager'" | grep -q 1 \
    || "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U forager forager
  export DATABASE_URL="postgres://forager@127.0.0.1:$pg_port/forager"
fi

stop_cluster() {
  if [[ -n "$started_cluster" ]]; then as_server "$bin/pg_ctl" -D "$started_cluster" -m fast -w stop >/dev/null || true; fi
}
trap stop_cluster EXIT

swift build --scratch-path "$scratch" --product forager-server >&2
server="$scratch/debug/forager-server"
"$server" setup-db
echo "server: add a household and a device token with:" >&2
echo "  DATABASE_URL=$DATABASE_URL $server add-household NAME" >&2
echo "  DATABASE_URL=$DATABASE_URL $server issue-token --household NAME --device DEVICE --output DEVICE.token" >&2
"$server" serve --host 127.0.0.1 --port "$port"
