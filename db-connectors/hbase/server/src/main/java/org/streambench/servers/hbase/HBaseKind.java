package org.streambench.servers.hbase;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.streambench.local.Home;
import org.streambench.servers.DbProfile;
import org.streambench.servers.HadoopFiles;
import org.streambench.servers.LocalServerKind;

/**
 * HBase 2.6 standalone (master, region server and ZooKeeper in one JVM, HMaster start) from the
 * Maven-resolved hbase-server classpath. Ports: ZooKeeper = port, master = port + 1,
 * region server = port + 2; web UIs off.
 */
public final class HBaseKind implements LocalServerKind {

    private static final List<String> JDK17_FLAGS = List.of(
            "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
            "--add-modules",
            "jdk.unsupported",
            "--add-opens",
            "java.base/java.nio=ALL-UNNAMED",
            "--add-opens",
            "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.lang=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.util=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-exports",
            "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports",
            "java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-exports",
            "java.base/sun.net.dns=ALL-UNNAMED",
            "--add-exports",
            "java.base/sun.net.util=ALL-UNNAMED");

    @Override
    public String database() {
        return "hbase";
    }

    @Override
    public int defaultPort() {
        return 12181;
    }

    @Override
    public List<Integer> extraPorts(int port) {
        return List.of(port + 1, port + 2);
    }

    @Override
    public List<String> command(Path dir, int port, String password, DbProfile profile) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.writeString(conf.resolve("hbase-site.xml"), siteXml(data, port));
        Files.writeString(
                conf.resolve("log4j.properties"),
                HadoopFiles.consoleLog4j(
                        "log4j.logger.org.apache.zookeeper=WARN",
                        "log4j.logger.org.apache.hadoop=WARN",
                        "log4j.logger.org.apache.hadoop.hbase=INFO"));
        List<String> command = new ArrayList<>(List.of(Home.javaExecutable(), "-Xms1g", "-Xmx1g"));
        command.addAll(JDK17_FLAGS);
        command.addAll(List.of(
                "-Dlog4j.configuration=file:" + conf.resolve("log4j.properties"),
                "-cp",
                conf + File.pathSeparator + Home.classpathOf("db-connectors/hbase/server-classpath"),
                "org.apache.hadoop.hbase.master.HMaster",
                "start"));
        return command;
    }

    @Override
    public Map<String, String> settings(int port, String password) {
        return Map.of("url", "127.0.0.1:" + port);
    }

    /**
     * HBase's durability is the table's, which the connector creates: fast makes its WAL writes
     * asynchronous, durable syncs them to disk (the default only hands them to the file system).
     */
    @Override
    public Map<String, String> profileSettings(DbProfile profile) {
        return switch (profile) {
            case FAST -> Map.of("durability", "ASYNC_WAL");
            case DURABLE -> Map.of("durability", "FSYNC_WAL");
            case DEFAULT -> Map.of();
        };
    }

    private static String siteXml(Path data, int port) {
        return HadoopFiles.siteXml(Map.ofEntries(
                Map.entry("hbase.cluster.distributed", "false"),
                Map.entry("hbase.rootdir", data.resolve("hbase").toUri().toString()),
                Map.entry(
                        "hbase.zookeeper.property.dataDir",
                        data.resolve("zookeeper").toString()),
                Map.entry("hbase.tmp.dir", data.resolve("tmp").toString()),
                Map.entry("hbase.zookeeper.quorum", "127.0.0.1"),
                Map.entry("hbase.zookeeper.property.clientPort", Integer.toString(port)),
                Map.entry("hbase.zookeeper.property.clientPortAddress", "127.0.0.1"),
                Map.entry("hbase.master.port", Integer.toString(port + 1)),
                Map.entry("hbase.regionserver.port", Integer.toString(port + 2)),
                Map.entry("hbase.master.info.port", "-1"),
                Map.entry("hbase.regionserver.info.port", "-1"),
                Map.entry("hbase.unsafe.stream.capability.enforce", "false"),
                Map.entry("hbase.master.hostname", "127.0.0.1"),
                Map.entry("hbase.regionserver.hostname", "127.0.0.1")));
    }
}
