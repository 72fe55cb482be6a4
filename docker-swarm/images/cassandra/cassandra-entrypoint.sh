#!/bin/bash
# One node of the single-node swarm's Cassandra cluster. From the environment: CASSANDRA_SEEDS (the
# seed services' names), CASSANDRA_TOKEN (this node's one token: the nodes split the ring evenly),
# NATIVE_PORT (its CQL port, published on the host as the same port, and what it tells clients, with
# address 127.0.0.1: so a driver on the host reaches every node), HEAP (e.g. 512m). With
# SECURE_PASSWORD_FILE (the first node only), once the ring is up: system_auth replicated to every
# node, a superuser streambench with the secret's password, and the default superuser cassandra
# disabled; then the file SECURED_MARKER, which the other nodes' health checks wait for (a volume
# all three mount: the swarm's DNS names a task only once it is healthy, so the first node must be
# healthy, and named, before the others can join it).
set -euo pipefail
: "${CASSANDRA_SEEDS:?}" "${CASSANDRA_TOKEN:?}" "${NATIVE_PORT:=9042}" "${HEAP:=512m}" "${CLUSTER_NODES:=3}"
data=/var/lib/cassandra
mkdir -p /etc/cassandra "$data"
chown cassandra "$data"

# a seed's name resolves once its task is healthy; Cassandra gives up on a seed list that resolves to nothing
seeds=""
for seed in ${CASSANDRA_SEEDS//,/ }; do
  for attempt in $(seq 1 120); do
    address=$(getent hosts "$seed" | awk '{print $1; exit}') && [ -n "$address" ] && break
    sleep 1
  done
  [ -n "$address" ] || { echo "seed $seed does not resolve" >&2; exit 1; }
  seeds="${seeds:+$seeds,}$address"
done
self=$(hostname -i | awk '{print $1}')

cat > /etc/cassandra/cassandra.yaml <<YAML
cluster_name: streambench
num_tokens: 1
initial_token: ${CASSANDRA_TOKEN}
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
auto_bootstrap: false
authenticator: PasswordAuthenticator
authorizer: CassandraAuthorizer
role_manager: CassandraRoleManager
data_file_directories: [${data}/data]
commitlog_directory: ${data}/commitlog
saved_caches_directory: ${data}/saved_caches
hints_directory: ${data}/hints
cdc_raw_directory: ${data}/cdc_raw
commitlog_sync: periodic
commitlog_sync_period: 10000ms
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "${seeds}"
listen_address: ${self}
rpc_address: 0.0.0.0
broadcast_rpc_address: 127.0.0.1
native_transport_port: ${NATIVE_PORT}
storage_port: 7000
endpoint_snitch: SimpleSnitch
start_native_transport: true
concurrent_compactors: 1
YAML
cat > /etc/cassandra/logback.xml <<'XML'
<configuration>
  <appender name="STDOUT" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{20} - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="STDOUT"/></root>
</configuration>
XML

if [ -n "${SECURE_PASSWORD_FILE:-}" ] && [ ! -e "${SECURED_MARKER:?}" ]; then
  (
    java -cp '/opt/streambench/*:/opt/streambench/classes' org.streambench.servers.cassandra.SwarmSuperuser \
      127.0.0.1 "$NATIVE_PORT" "$SECURE_PASSWORD_FILE" "$CLUSTER_NODES" \
      && touch "$SECURED_MARKER"
  ) &
fi

jamm=$(ls /opt/cassandra/lib/jamm-*.jar | head -1)
exec setpriv --reuid=cassandra --regid=cassandra --init-groups \
  java -Xms"$HEAP" -Xmx"$HEAP" -javaagent:"$jamm" \
  -XX:+UseG1GC -XX:+ParallelRefProcEnabled -XX:MaxTenuringThreshold=1 -XX:G1HeapRegionSize=16m \
  -XX:G1RSetUpdatingPauseTimePercent=5 -XX:MaxGCPauseMillis=300 -XX:InitiatingHeapOccupancyPercent=70 \
  -Djdk.attach.allowAttachSelf=true \
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
  --add-exports java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED \
  --add-exports java.rmi/sun.rmi.registry=ALL-UNNAMED \
  --add-exports java.rmi/sun.rmi.server=ALL-UNNAMED \
  --add-exports java.sql/java.sql=ALL-UNNAMED \
  --add-exports java.base/java.lang.ref=ALL-UNNAMED \
  --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED \
  --add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED \
  --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED \
  --add-opens java.base/java.lang.module=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.loader=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.reflect=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.math=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.module=ALL-UNNAMED \
  --add-opens java.base/jdk.internal.util.jar=ALL-UNNAMED \
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED \
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  --add-opens java.base/java.io=ALL-UNNAMED \
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED \
  --add-opens jdk.compiler/com.sun.tools.javac=ALL-UNNAMED \
  --add-opens java.base/java.lang=ALL-UNNAMED \
  --add-opens java.base/java.util=ALL-UNNAMED \
  -Dio.netty.tryReflectionSetAccessible=true -Dio.netty.allocator.useCacheForAllThreads=true \
  -Dio.netty.allocator.maxOrder=11 \
  -Dcassandra.config=file:///etc/cassandra/cassandra.yaml \
  -Dlogback.configurationFile=/etc/cassandra/logback.xml \
  -Dcassandra.storagedir="$data" -Dcassandra.logdir="$data" -Dcassandra-foreground=yes \
  -Dcassandra.skip_wait_for_gossip_to_settle=0 -Dcassandra.superuser_setup_delay_ms=0 \
  -Dcassandra.consistent.rangemovement=false \
  -cp '/opt/cassandra/lib/*' org.apache.cassandra.service.CassandraDaemon
