# Sourced by the entrypoints of the images that run HDFS and ZooKeeper on the single-node swarm
# (hadoop, hbase; bench swarm images stages this file into their build contexts, as their file
# 'include' says). Every daemon shares the host's network and listens on 127.0.0.1 at ports of its
# own, from the environment: ZOOKEEPER_PORT, NAMENODE_PORT, NAMENODE_HTTP_PORT, DATANODE_PORT (and
# the next two: the DataNode's HTTP and IPC ports). The entrypoint sets conf, classpath and jvm_flags
# (the JVM's flags but the heap) and HEAP before it calls these.

site() { # NAME=VALUE ... -> a Hadoop site file on stdout
  echo '<?xml version="1.0"?><configuration>'
  for pair in "$@"; do echo "<property><name>${pair%%=*}</name><value>${pair#*=}</value></property>"; done
  echo '</configuration>'
}

write_hdfs_sites() { # core-site.xml and hdfs-site.xml in $conf; data in /data
  site "fs.defaultFS=hdfs://127.0.0.1:${NAMENODE_PORT}" "hadoop.tmp.dir=/data/tmp" > "$conf/core-site.xml"
  site "dfs.namenode.name.dir=/data/name" "dfs.datanode.data.dir=/data/data" "dfs.replication=1" \
    "dfs.permissions.enabled=false" "dfs.namenode.rpc-bind-host=127.0.0.1" \
    "dfs.namenode.http-address=127.0.0.1:${NAMENODE_HTTP_PORT}" \
    "dfs.datanode.address=127.0.0.1:${DATANODE_PORT}" \
    "dfs.datanode.http.address=127.0.0.1:$((DATANODE_PORT + 1))" \
    "dfs.datanode.ipc.address=127.0.0.1:$((DATANODE_PORT + 2))" \
    "dfs.datanode.hostname=127.0.0.1" "dfs.namenode.datanode.registration.ip-hostname-check=false" > "$conf/hdfs-site.xml"
}

write_log4j() { # $conf/log4j.properties: INFO to the console, the chattiest libraries quieter
  cat > "$conf/log4j.properties" <<'LOG'
log4j.rootLogger=INFO,console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p %c{2}: %m%n
log4j.logger.org.apache.zookeeper=WARN
log4j.logger.org.eclipse.jetty=WARN
log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
LOG
}

java_run() { # MAIN-CLASS ARGS...: the daemon in the foreground, as the task's process
  exec java "-Xms${HEAP}" "-Xmx${HEAP}" "${jvm_flags[@]}" "-Dlog4j.configuration=file:$conf/log4j.properties" \
    -Dhadoop.log.dir=/data/logs -cp "$classpath" "$@"
}

await_port() { # PORT: until something listens on 127.0.0.1:PORT
  until (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null; do sleep 1; done
}

run_hdfs_role() { # ROLE: zookeeper, namenode or datanode, in the foreground as the task's process
  case "$1" in
    zookeeper)
      printf 'dataDir=/data/zookeeper\nclientPort=%s\nclientPortAddress=127.0.0.1\nadmin.enableServer=false\n4lw.commands.whitelist=ruok,srvr\ntickTime=2000\n' \
        "$ZOOKEEPER_PORT" > "$conf/zoo.cfg"
      java_run org.apache.zookeeper.server.quorum.QuorumPeerMain "$conf/zoo.cfg" ;;
    namenode)
      if [ ! -d /data/name/current ]; then
        java "${jvm_flags[@]}" "-Dlog4j.configuration=file:$conf/log4j.properties" -cp "$classpath" \
          org.apache.hadoop.hdfs.server.namenode.NameNode -format -nonInteractive -force
      fi
      java_run org.apache.hadoop.hdfs.server.namenode.NameNode ;;
    datanode)
      await_port "$NAMENODE_PORT"
      java_run org.apache.hadoop.hdfs.server.datanode.DataNode ;;
    *) echo "not an HDFS role: $1" >&2; exit 2 ;;
  esac
}
