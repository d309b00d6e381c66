#!/bin/sh
# The official postgres image's start, as far as deploy/compose.yaml uses it: on an empty
# data directory, a cluster whose superuser is POSTGRES_USER (password POSTGRES_PASSWORD,
# asked of every client over TCP) and a database POSTGRES_DB; then the server, listening
# on every address, run as the postgres user.
set -eu
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  user=${POSTGRES_USER:-postgres}
  pwfile=$(mktemp)
  printf '%s' "${POSTGRES_PASSWORD:?the postgres stand-in needs POSTGRES_PASSWORD}" > "$pwfile"
  initdb -D "$PGDATA" -U "$user" --pwfile="$pwfile" --auth-local=trust \
    --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  db=${POSTGRES_DB:-$user}
  if [ "$db" != postgres ]; then createdb -U "$user" -O "$user" "$db"; fi
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
if [ "$1" = postgres ]; then shift; exec postgres -c listen_addresses='*' "$@"; fi
exec "$@"
