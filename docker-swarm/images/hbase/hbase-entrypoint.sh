#!/bin/bash
# One daemon of the single-node swarm's HBase on HDFS: hbase-entrypoint.sh ROLE, ROLE one of
# zookeeper, namenode, datanode, master, regionserver. Every task shares the host's network (one
# node: the HBase client on the host is told 127.0.0.1 and a port, which then reaches the region
# servers and the master, as it does in the task's own network), so each daemon listens on
# 127.0.0.1 at a port of its own, from the environment: ZOOKEEPER_PORT, NAMENODE_PORT,
# NAMENODE_HTTP_PORT, DATANODE_PORT (and the next two: its HTTP and IPC ports), MASTER_PORT (and the
# next: its web UI), REGIONSERVER_PORT (and the next: its web UI); HEAP (e.g. 512m). Data in /data.
set -euo pipefail
role="${1:?usage: hbase-entrypoint.sh zookeeper|namenode|datanode|master|regionserver}"
: "${ZOOKEEPER_PORT:=22181}" "${NAMENODE_PORT:=28020}" "${NAMENODE_HTTP_PORT:=28070}" "${DATANODE_PORT:=28866}"
: "${MASTER_PORT:=26000}" "${REGIONSERVER_PORT:=26020}" "${HEAP:=512m}"
conf=/etc/hbase
mkdir -p "$conf" /data

source /usr/local/lib/streambench/hdfs-roles.sh
write_hdfs_sites
site "hbase.cluster.distributed=true" "hbase.rootdir=hdfs://127.0.0.1:${NAMENODE_PORT}/hbase" \
  "hbase.tmp.dir=/data/tmp" "hbase.zookeeper.quorum=127.0.0.1" \
  "hbase.zookeeper.property.clientPort=${ZOOKEEPER_PORT}" \
  "hbase.master.port=${MASTER_PORT}" "hbase.master.info.port=$((MASTER_PORT + 1))" \
  "hbase.master.hostname=127.0.0.1" \
  "hbase.regionserver.port=${REGIONSERVER_PORT}" "hbase.regionserver.info.port=$((REGIONSERVER_PORT + 1))" \
  "hbase.regionserver.hostname=127.0.0.1" "hbase.unsafe.stream.capability.enforce=false" \
  "hbase.wal.provider=filesystem" > "$conf/hbase-site.xml"
# the HTTP servers (the health checks read their /jmx) look for their web applications on the classpath,
# which the Maven artifacts of hadoop-hdfs and hbase-server do not hold: empty ones serve
mkdir -p "$conf"/webapps/{hdfs,datanode,static} "$conf"/hbase-webapps/{master,regionserver,static}
write_log4j

# the jars in the order of the local server's classpath (they carry duplicate classes: netty, servlet API)
classpath="$conf:$(sed 's|^|/opt/hbase/lib/|' /opt/hbase/lib/classpath.txt | paste -sd:)"
jvm_flags=(-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
  --add-modules jdk.unsupported --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-exports java.base/sun.net.dns=ALL-UNNAMED
  --add-exports java.base/sun.net.util=ALL-UNNAMED)

case "$role" in
  zookeeper|namenode|datanode) run_hdfs_role "$role" ;;
  master)
    await_port "$ZOOKEEPER_PORT"
    await_port "$DATANODE_PORT"
    java_run org.apache.hadoop.hbase.master.HMaster start ;;
  regionserver)
    await_port "$ZOOKEEPER_PORT"
    await_port "$MASTER_PORT"
    java_run org.apache.hadoop.hbase.regionserver.HRegionServer start ;;
  *) echo "unknown role $role" >&2; exit 2 ;;
esac
