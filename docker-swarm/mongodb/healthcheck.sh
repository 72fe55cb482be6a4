#!/bin/bash
# Health check of every service in mongodb.yml. Swarm has no init containers, so the check also
# does the one-time set-up, idempotently: the first member of each replica set initiates its set
# (STREAMBENCH_INITIATE=config/host:port,host:port,...), and mongos adds the shards
# (STREAMBENCH_SHARDS=shard-a/host:port,...;shard-b/...). Healthy means: serving, and set up.
set -eu
port="${STREAMBENCH_PORT:?}"
mongo() { mongosh --quiet --port "$port" --eval "$1"; }

if [ -n "${STREAMBENCH_INITIATE:-}" ]; then
  set_name="${STREAMBENCH_INITIATE%%/*}"
  members=""
  index=0
  IFS=, read -ra hosts <<< "${STREAMBENCH_INITIATE#*/}"
  for host in "${hosts[@]}"; do
    members="$members{_id: $index, host: '$host'},"
    index=$((index + 1))
  done
  configsvr=false
  [ "$set_name" = config ] && configsvr=true
  mongo "try { rs.status() } catch (e) { rs.initiate({_id: '$set_name', configsvr: $configsvr, members: [$members]}) }" >/dev/null
  mongo "quit(rs.status().members.some(m => m.stateStr === 'PRIMARY') ? 0 : 1)"
elif [ -n "${STREAMBENCH_SHARDS:-}" ]; then
  IFS=';' read -ra shards <<< "$STREAMBENCH_SHARDS"
  for shard in "${shards[@]}"; do
    mongo "if (!db.adminCommand({listShards: 1}).shards.some(s => s._id === '${shard%%/*}')) sh.addShard('$shard')" >/dev/null
  done
  mongo "quit(db.adminCommand({listShards: 1}).shards.length === ${#shards[@]} ? 0 : 1)"
else
  mongo "quit(db.adminCommand({ping: 1}).ok === 1 ? 0 : 1)"
fi
