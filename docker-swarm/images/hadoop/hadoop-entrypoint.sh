#!/bin/bash
# One daemon of the single-node swarm's base stack: hadoop-entrypoint.sh ROLE, ROLE one of zookeeper,
# namenode, datanode, resourcemanager, nodemanager. Every task shares the host's network (one node:
# the runner on the host submits to YARN and stages on HDFS at 127.0.0.1, and the engines' containers
# reach the runner's collector and the database stacks' published ports there), so each daemon listens
# on 127.0.0.1 at ports of its own, from the environment: ZOOKEEPER_PORT, NAMENODE_PORT,
# NAMENODE_HTTP_PORT, DATANODE_PORT (and the next two: its HTTP and IPC ports), YARN_PORT (and the next
# seven, as the suite's local YARN: scheduler, resource tracker, client, admin, web, NodeManager,
# localizer, NodeManager web); NODE_MEMORY_MB and NODE_VCORES (what the NodeManager offers); HEAP.
set -euo pipefail
role="${1:?usage: hadoop-entrypoint.sh zookeeper|namenode|datanode|resourcemanager|nodemanager}"
: "${ZOOKEEPER_PORT:=21181}" "${NAMENODE_PORT:=29820}" "${NAMENODE_HTTP_PORT:=29870}" "${DATANODE_PORT:=29866}"
: "${YARN_PORT:=28030}" "${NODE_MEMORY_MB:=6144}" "${NODE_VCORES:=8}" "${HEAP:=512m}"
conf="$HADOOP_CONF_DIR"
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
# the same addresses as docker-swarm/single-node/yarn-conf/yarn-site.xml, the runner's view of this YARN
site "yarn.resourcemanager.hostname=127.0.0.1" \
  "yarn.resourcemanager.scheduler.address=127.0.0.1:${YARN_PORT}" \
  "yarn.resourcemanager.resource-tracker.address=127.0.0.1:$((YARN_PORT + 1))" \
  "yarn.resourcemanager.address=127.0.0.1:$((YARN_PORT + 2))" \
  "yarn.resourcemanager.admin.address=127.0.0.1:$((YARN_PORT + 3))" \
  "yarn.resourcemanager.webapp.address=127.0.0.1:$((YARN_PORT + 4))" \
  "yarn.nodemanager.hostname=127.0.0.1" \
  "yarn.nodemanager.address=127.0.0.1:$((YARN_PORT + 5))" \
  "yarn.nodemanager.localizer.address=127.0.0.1:$((YARN_PORT + 6))" \
  "yarn.nodemanager.webapp.address=127.0.0.1:$((YARN_PORT + 7))" \
  "yarn.nodemanager.resource.memory-mb=${NODE_MEMORY_MB}" "yarn.nodemanager.resource.cpu-vcores=${NODE_VCORES}" \
  "yarn.scheduler.minimum-allocation-mb=256" "yarn.scheduler.maximum-allocation-mb=${NODE_MEMORY_MB}" \
  "yarn.resourcemanager.am.max-attempts=1" \
  "yarn.nodemanager.vmem-check-enabled=false" "yarn.nodemanager.pmem-check-enabled=false" \
  "yarn.nodemanager.local-dirs=/data/nm-local" "yarn.nodemanager.log-dirs=/data/nm-logs" \
  "yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage=99" \
  "yarn.nodemanager.env-whitelist=JAVA_HOME,PATH,LANG,TZ,HADOOP_CONF_DIR" \
  "yarn.application.classpath=$conf,/opt/hadoop/lib/*" > "$conf/yarn-site.xml"
cat > "$conf/log4j.properties" <<'LOG'
log4j.rootLogger=INFO,console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p %c{2}: %m%n
log4j.logger.org.apache.zookeeper=WARN
log4j.logger.org.eclipse.jetty=WARN
log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
LOG

classpath="$conf:$(sed 's|^|/opt/hadoop/lib/|' /opt/hadoop/lib/classpath.txt | paste -sd:)"
opens=()
for pkg in java.lang java.lang.reflect java.lang.invoke java.util java.util.concurrent java.io java.net java.nio \
    sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
  opens+=("--add-opens=java.base/$pkg=ALL-UNNAMED")
done
java_run() { # MAIN-CLASS ARGS...
  exec java "-Xms${HEAP}" "-Xmx${HEAP}" "${opens[@]}" "-Dlog4j.configuration=file:$conf/log4j.properties" \
    -Dhadoop.log.dir=/data/logs -cp "$classpath" "$@"
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
      java "${opens[@]}" -cp "$classpath" "-Dlog4j.configuration=file:$conf/log4j.properties" \
        org.apache.hadoop.hdfs.server.namenode.NameNode -format -nonInteractive -force
    fi
    java_run org.apache.hadoop.hdfs.server.namenode.NameNode ;;
  datanode)
    await_port "$NAMENODE_PORT"
    java_run org.apache.hadoop.hdfs.server.datanode.DataNode ;;
  resourcemanager)
    java_run org.apache.hadoop.yarn.server.resourcemanager.ResourceManager ;;
  nodemanager)
    # the engines stage their jars on HDFS: containers start once it takes files
    await_port "$DATANODE_PORT"
    await_port "$((YARN_PORT + 1))"
    java_run org.apache.hadoop.yarn.server.nodemanager.NodeManager ;;
  *) echo "unknown role $role" >&2; exit 2 ;;
esac
