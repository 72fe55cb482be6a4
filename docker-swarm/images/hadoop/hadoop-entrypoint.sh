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

source /usr/local/lib/streambench/hdfs-roles.sh
write_hdfs_sites
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
write_log4j

classpath="$conf:$(sed 's|^|/opt/hadoop/lib/|' /opt/hadoop/lib/classpath.txt | paste -sd:)"
jvm_flags=()
for pkg in java.lang java.lang.reflect java.lang.invoke java.util java.util.concurrent java.io java.net java.nio \
    sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
  jvm_flags+=("--add-opens=java.base/$pkg=ALL-UNNAMED")
done

case "$role" in
  zookeeper|namenode|datanode) run_hdfs_role "$role" ;;
  resourcemanager)
    java_run org.apache.hadoop.yarn.server.resourcemanager.ResourceManager ;;
  nodemanager)
    # the engines stage their jars on HDFS: containers start once it takes files
    await_port "$DATANODE_PORT"
    await_port "$((YARN_PORT + 1))"
    java_run org.apache.hadoop.yarn.server.nodemanager.NodeManager ;;
  *) echo "unknown role $role" >&2; exit 2 ;;
esac
