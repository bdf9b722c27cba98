#!/usr/bin/env bash
# Starts forager-server on loopback over PostgreSQL (Docs/SERVER.md, "Operating it").
#
#   Scripts/server.sh                  # a cluster in ${FORAGER_SERVER_DATA:-~/.local/share/forager-server}
#   DATABASE_URL=postgres://… Scripts/server.sh   # an existing database instead (its sslmode is honoured)
#   PORT=9090 Scripts/server.sh        # another port (default 8080)
#
# Installs PostgreSQL with apt-get when missing, creates the cluster and database on first
# run (as root, the cluster runs as the 'postgres' user: PostgreSQL refuses root), sets up
# or upgrades the schema, builds forager-server in release mode and runs it until Ctrl-C,
# which also stops the cluster it started.
#
# The cluster it creates asks for a password (SCRAM-SHA-256) on every connection, TCP on
# 127.0.0.1 and its Unix socket alike: the password is generated once and kept in
# $data/password with mode 600, and DATABASE_URL carries it. A cluster an earlier version of
# this script created with trust authentication is switched over the same way.
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
  chmod 700 "$data"
  if [[ $(id -u) -eq 0 ]]; then chown postgres "$data"; fi
  secret="$data/password"
  if [[ ! -s "$secret" ]]; then
    (umask 077 && head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$secret")
  fi
  chmod 600 "$secret"
  if [[ $(id -u) -eq 0 ]]; then chown postgres "$secret"; fi
  if [[ ! -f "$data/pgdata/PG_VERSION" ]]; then
    echo "server: creating a PostgreSQL cluster in $data/pgdata (password authentication)" >&2
    as_server "$bin/initdb" -D "$data/pgdata" -A scram-sha-256 --pwfile="$secret" -U forager -E UTF8 >/dev/null
  fi
  if ! as_server "$bin/pg_ctl" -D "$data/pgdata" status >/dev/null 2>&1; then
    as_server "$bin/pg_ctl" -D "$data/pgdata" -l "$data/postgres.log" -w \
      -o "-p $pg_port -k $data -c listen_addresses=127.0.0.1" start >/dev/null
    started_cluster="$data/pgdata"
  fi
  export PGPASSWORD
  PGPASSWORD="$(cat "$secret")"
  if grep -Eq '^[^#]*[[:space:]]trust([[:space:]]|$)' "$data/pgdata/pg_hba.conf"; then
    echo "server: switching the cluster from trust to password (SCRAM-SHA-256) authentication" >&2
    "$bin/psql" -h "$data" -p "$pg_port" -U forager -d postgres -qtA \
      -c "SET password_encryption = 'scram-sha-256'" -c "ALTER ROLE forager PASSWORD '$PGPASSWORD'" >/dev/null
    as_server sed -i -E 's/^([^#]*[[:space:]])trust([[:space:]]*)$/\1scram-sha-256\2/' "$data/pgdata/pg_hba.conf"
    as_server "$bin/pg_ctl" -D "$data/pgdata" reload >/dev/null
  fi
  "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U forager -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'forager'" | grep -q 1 \
    || "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U forager forager
  export DATABASE_URL="postgres://forager:$PGPASSWORD@127.0.0.1:$pg_port/forager"
fi

stop_cluster() {
  if [[ -n "$started_cluster" ]]; then as_server "$bin/pg_ctl" -D "$started_cluster" -m fast -w stop >/dev/null || true; fi
}
trap stop_cluster EXIT

swift build -c release --scratch-path "$scratch" --product forager-server >&2
server="$(swift build -c release --scratch-path "$scratch" --product forager-server --show-bin-path)/forager-server"
"$server" setup-db
echo "server: add a household and a device token with:" >&2
if [[ -n "${secret:-}" ]]; then
  echo "  export DATABASE_URL=\"postgres://forager:\$(cat '$secret')@127.0.0.1:$pg_port/forager\"" >&2
fi
echo "  $server add-household NAME" >&2
echo "  $server issue-token --household NAME --device DEVICE --output DEVICE.token" >&2
"$server" serve --host 127.0.0.1 --port "$port"
