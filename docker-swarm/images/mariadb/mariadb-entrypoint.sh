#!/bin/bash
# One node of the single-node swarm's MariaDB Galera cluster. From the environment: GALERA_JOIN (the
# service whose node this one joins; unset on the node that bootstraps the cluster), PORT (the SQL
# port, published on the host as the same port), BUFFER_POOL (e.g. 256M). The bootstrapping node, on
# its first start, creates MARIADB_DATABASE and MARIADB_USER with the password in
# MARIADB_PASSWORD_FILE, allowed RELOAD too (a run settles the database after its prefill with FLUSH
# TABLES ... FOR EXPORT); a joining node receives them with the state transfer. Then it writes
# /run/streambench-ready, which its health check waits for. The swarm's DNS names a task only once it
# is healthy: a joining node waits for its seed's name, the seed never for the joiners.
set -euo pipefail
: "${PORT:=3306}" "${BUFFER_POOL:=256M}"
data=/var/lib/mysql
chown mysql:mysql "$data"
self=$(hostname -i | awk '{print $1}')

if [ -n "${GALERA_JOIN:-}" ]; then
  for attempt in $(seq 1 180); do
    seed=$(getent hosts "$GALERA_JOIN" | awk '{print $1; exit}') && [ -n "$seed" ] && break
    sleep 1
  done
  [ -n "${seed:-}" ] || { echo "$GALERA_JOIN does not resolve" >&2; exit 1; }
  cluster="gcomm://$seed"
  bootstrap=()
else
  first_start=$([ -d "$data/mysql" ] && echo no || echo yes)
  if [ "$first_start" = yes ]; then
    mariadb-install-db --user=mysql --datadir="$data" --skip-test-db > /dev/null
  elif [ -f "$data/grastate.dat" ]; then
    # this node bootstraps by design: Galera would refuse when another node left the cluster after it
    sed -i 's/^safe_to_bootstrap: 0/safe_to_bootstrap: 1/' "$data/grastate.dat"
  fi
  cluster="gcomm://"
  bootstrap=(--wsrep-new-cluster)
fi

mariadbd --user=mysql --datadir="$data" --port="$PORT" --bind-address=0.0.0.0 \
  --innodb-buffer-pool-size="$BUFFER_POOL" --max-allowed-packet=64M \
  --binlog-format=ROW --default-storage-engine=InnoDB --innodb-autoinc-lock-mode=2 \
  --wsrep-on=ON --wsrep-provider=/usr/lib/galera/libgalera_smm.so --wsrep-cluster-name=streambench \
  --wsrep-cluster-address="$cluster" --wsrep-node-address="$self" --wsrep-node-name="$(hostname)" \
  --wsrep-sst-method=rsync "${bootstrap[@]}" &
server=$!
trap 'kill -TERM $server; wait $server' TERM INT

if [ -z "${GALERA_JOIN:-}" ]; then
  until mariadb-admin --protocol=socket ping > /dev/null 2>&1; do
    kill -0 $server 2> /dev/null || { wait $server; exit 1; }
    sleep 1
  done
  if [ "$first_start" = yes ]; then
    password=$(cat "${MARIADB_PASSWORD_FILE:?}")
    mariadb --protocol=socket <<SQL
CREATE DATABASE IF NOT EXISTS \`${MARIADB_DATABASE:?}\`;
CREATE USER IF NOT EXISTS '${MARIADB_USER:?}'@'%' IDENTIFIED BY '${password//\'/\'\'}';
GRANT ALL ON \`${MARIADB_DATABASE}\`.* TO '${MARIADB_USER}'@'%';
GRANT RELOAD ON *.* TO '${MARIADB_USER}'@'%';
SQL
  fi
  touch /run/streambench-ready
fi
wait $server
