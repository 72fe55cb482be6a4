#!/bin/bash
# The part of the official postgres image's entrypoint that the stacks use: on the first start,
# initdb with the password from POSTGRES_PASSWORD_FILE, create POSTGRES_DB, run the scripts of
# /docker-entrypoint-initdb.d; then run postgres as the postgres user, listening on every address.
set -euo pipefail
if [ "${1:-}" = postgres ] && [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA"
  chown postgres "$PGDATA"
  chmod 700 "$PGDATA"
  exec gosu postgres "$0" "$@"
fi
if [ "${1:-}" = postgres ]; then
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
    export POSTGRES_USER POSTGRES_DB
    initdb --username="$POSTGRES_USER" --pwfile="$POSTGRES_PASSWORD_FILE" --auth-local=trust \
      --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    if [ "$POSTGRES_DB" != postgres ]; then
      psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres -q \
        -c "CREATE DATABASE \"$POSTGRES_DB\""
    fi
    for script in /docker-entrypoint-initdb.d/*; do
      case "$script" in
        *.sh) echo "running $script"; . "$script" ;;
        *.sql) echo "running $script"; psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -f "$script" ;;
      esac
    done
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  shift
  exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
