#!/bin/bash
# A streaming replica of postgresql-primary: on first start, copy the primary with pg_basebackup
# (-R writes the standby settings), then run the image's own entrypoint on that data.
set -e
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA" && chown postgres "$PGDATA" && chmod 700 "$PGDATA"
  until PGPASSWORD="$(cat /run/secrets/streambench_db_password)" \
      gosu postgres pg_basebackup -h postgresql-primary -U replicator -D "$PGDATA" -R -X stream; do
    echo "waiting for postgresql-primary ..." >&2
    sleep 5
  done
fi
exec docker-entrypoint.sh postgres
