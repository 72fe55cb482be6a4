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

site() { # NAME=VALUE ... -> a Hadoop site file on stdout
  echo '<?xml version="1.0"?><configuration>'
  for pair in "$@"; do echo "<property><name>${pair%%=*}</name><value>${pair#*=}</value></property>"; done
  echo '</configuration>'
}
site "fs.defaultFS=hdfs://127.0.0.1:${NAMENODE_PORT}" "hadoop.tmp.dir=/data/tmp" > "$conf/core-site.xml"
site "dfs.namenode.name.dir=/data/name" "dfs.datanode.data.dir=/data/data" "dfs.replication=1" \
  "dfs.permissions.enabled=false" "dfs.namenode.rpc-bind-host=127.0.0.1" \
  "dfs.namenode.http-address=127.0.0.1:${NAMENODE_HTTP_PORT}" \
  "dfs.datanode.address=127.0.0.1:${DATANODE_PORT}" \
  "dfs.datanode.http.address=127.0.0.1:$((DATANODE_PORT + 1))" \
  "dfs.datanode.ipc.address=127.0.0.1:$((DATANODE_PORT + 2))" \
  "dfs.datanode.hostname=127.0.0.1" "dfs.namenode.datanode.registration.ip-hostname-check=false" > "$conf/hdfs-site.xml"
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
cat > "$conf/log4j.properties" <<'LOG'
log4j.rootLogger=INFO,console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p %c{2}: %m%n
log4j.logger.org.apache.zookeeper=WARN
log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
LOG

# the jars in the order of the local server's classpath (they carry duplicate classes: netty, servlet API)
classpath="$conf:$(sed 's|^|/opt/hbase/lib/|' /opt/hbase/lib/classpath.txt | paste -sd:)"
java_run() { # MAIN-CLASS ARGS...
  exec java "-Xms${HEAP}" "-Xmx${HEAP}" -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true \
    --add-modules jdk.unsupported --add-opens java.base/java.nio=ALL-UNNAMED \
    --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
    --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED \
    --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED \
    --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-exports java.base/sun.net.dns=ALL-UNNAMED \
    --add-exports java.base/sun.net.util=ALL-UNNAMED \
    "-Dlog4j.configuration=file:$conf/log4j.properties" -Dhadoop.log.dir=/data/logs \
    -cp "$classpath" "$@"
}
await_port() { # PORT: until something listens on 127.0.0.1:PORT
  until (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null; do sleep 1; done
}

case "$role" in
  zookeeper)
    printf 'dataDir=/data/zookeeper\nclientPort=%s\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n4lw.commands.whitelist=ruok,srvr\ntickTime=2000\n' \
      "$ZOOKEEPER_PORT" > "$conf/zoo.cfg"
    java_run org.apache.zookeeper.server.quorum.QuorumPeerMain "$conf/zoo.cfg" ;;
  namenode)
    if [ ! -d /data/name/current ]; then
      java -cp "$classpath" "-Dlog4j.configuration=file:$conf/log4j.properties" \
        org.apache.hadoop.hdfs.server.namenode.NameNode -format -nonInteractive -force
    fi
    java_run org.apache.hadoop.hdfs.server.namenode.NameNode ;;
  datanode)
    await_port "$NAMENODE_PORT"
    java_run org.apache.hadoop.hdfs.server.datanode.DataNode ;;
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
