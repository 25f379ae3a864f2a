#!/usr/bin/env bash
# Local PostgreSQL for development and tests: starts the machine's cluster when it is not
# running, waits until it accepts connections, and makes sure the `verdict` role and database
# exist (for DATABASE_URL=postgres://verdict@127.0.0.1:5432/verdict). Tests connect with
# VERDICT_TEST_DATABASE_URL (admin URL) and create one database per test file.
#
#   bash infra/services/postgres.sh
#
# Env: PGPORT (default 5432), VERDICT_PG_CLUSTER (default main), VERDICT_PG_VERSION (default:
#      the highest version under /etc/postgresql).
set -euo pipefail

PORT="${PGPORT:-5432}"
CLUSTER="${VERDICT_PG_CLUSTER:-main}"

log() { echo "postgres: $*" >&2; }
is_ready() { pg_isready -q -h 127.0.0.1 -p "$PORT"; }

start_cluster() {
  if ! command -v pg_ctlcluster > /dev/null || [[ ! -d /etc/postgresql ]]; then
    log "not answering on 127.0.0.1:$PORT and no Debian cluster tools to start it;"
    log "start PostgreSQL yourself or use: docker compose -f infra/compose.yaml up -d"
    exit 1
  fi
  local version="${VERDICT_PG_VERSION:-$(ls /etc/postgresql | sort -V | tail -n 1)}"
  log "starting cluster $version/$CLUSTER"
  # --skip-systemctl-redirect: there is no systemd on these machines (containers, CI).
  pg_ctlcluster --skip-systemctl-redirect "$version" "$CLUSTER" start || {
    # A racing start (another engineer, a parallel run) fails but leaves the server up.
    is_ready || { log "pg_ctlcluster $version $CLUSTER start failed"; exit 1; }
  }
}

wait_ready() {
  for _ in $(seq 300); do is_ready && return; sleep 0.1; done
  log "not accepting connections on 127.0.0.1:$PORT after 30s"
  exit 1
}

ensure_verdict_database() {
  # One psql call (this runs before every `npm test`); \gexec runs CREATE DATABASE only when
  # missing, since CREATE DATABASE cannot run inside a DO block. A concurrent creator may win
  # the race; the server is up either way, so that failure is ignored.
  psql -X -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres > /dev/null 2>&1 <<'SQL' || true
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'verdict') THEN
    CREATE ROLE verdict LOGIN CREATEDB;
  END IF;
END $$;
SELECT 'CREATE DATABASE verdict OWNER verdict'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'verdict') \gexec
SQL
}

drop_abandoned_test_databases() {
  # createTestDatabase() names databases <prefix>_<pid>_<10 hex>; a test process killed before
  # its afterAll leaves one behind. Drop those whose creating process is gone. Without FORCE, so
  # a database someone is still connected to is kept.
  local name pid
  while read -r name; do
    pid="$(sed -E 's/^.*_([0-9]+)_[0-9a-f]{10}$/\1/' <<< "$name")"
    [[ -d "/proc/$pid" ]] && continue
    psql -X -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres \
      -c "DROP DATABASE IF EXISTS \"$name\"" > /dev/null 2>&1 || true
  done < <(psql -X -tA -h 127.0.0.1 -p "$PORT" -U postgres -d postgres \
    -c "SELECT datname FROM pg_database WHERE datname ~ '^verdict[a-z0-9_]*_[0-9]+_[0-9a-f]{10}\$'" 2> /dev/null)
}

if ! is_ready; then
  start_cluster
  wait_ready
fi
ensure_verdict_database
drop_abandoned_test_databases
log "ready at 127.0.0.1:$PORT"
