#!/bin/sh
# The official postgres image's first start, in short: an empty PGDATA is initialised with
# POSTGRES_USER / POSTGRES_PASSWORD and POSTGRES_DB is created; then the server listens on all
# addresses with password authentication.
set -e
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  user="${POSTGRES_USER:-postgres}"
  pwfile=$(mktemp)
  printf '%s' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb -D "$PGDATA" --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  db="${POSTGRES_DB:-$user}"
  [ "$db" = postgres ] || createdb --username="$user" "$db"
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec "$@" -D "$PGDATA" -c listen_addresses='*'
