# Run once by the postgres image's entrypoint when the primary's data folder is initialised
# (mounted into docker-entrypoint-initdb.d by postgresql.yml): a role the replicas stream with.
set -e
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -c "CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD '$(cat /run/secrets/streambench_db_password)'"
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
