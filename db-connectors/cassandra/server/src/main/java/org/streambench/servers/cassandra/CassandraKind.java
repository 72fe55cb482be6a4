package org.streambench.servers.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.MalformedURLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.management.JMException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.streambench.local.Home;
import org.streambench.local.UserError;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServerKind;

/**
 * Cassandra 5.0 as its own JVM (CassandraDaemon) from the Maven-resolved cassandra-all classpath,
 * single node, minimal configuration, password authentication. Ports: native (CQL) = port, storage = port + 1, JMX = port + 2.
 */
public final class CassandraKind implements LocalServerKind {

    /** Cassandra's default superuser, whose default password the suite replaces by the generated one on the first start. */
    private static final String SUPERUSER = "cassandra";

    private static final String SECURED_MARKER = ".streambench-password-set";

    /** From Cassandra's conf/jvm17-server.options: without them "Cassandra is unable to access required classes". */
    private static final List<String> JDK17_FLAGS = List.of(
            "-XX:+UseG1GC",
            "-XX:+ParallelRefProcEnabled",
            "-XX:MaxTenuringThreshold=1",
            "-XX:G1HeapRegionSize=16m",
            "-XX:G1RSetUpdatingPauseTimePercent=5",
            "-XX:MaxGCPauseMillis=300",
            "-XX:InitiatingHeapOccupancyPercent=70",
            "-Djdk.attach.allowAttachSelf=true",
            "--add-exports",
            "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports",
            "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
            "--add-exports",
            "java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports",
            "java.rmi/sun.rmi.server=ALL-UNNAMED",
            "--add-exports",
            "java.sql/java.sql=ALL-UNNAMED",
            "--add-exports",
            "java.base/java.lang.ref=ALL-UNNAMED",
            "--add-exports",
            "jdk.unsupported/sun.misc=ALL-UNNAMED",
            "--add-exports",
            "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports",
            "jdk.attach/sun.tools.attach=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.lang.module=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.loader=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.reflect=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.math=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.module=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.util.jar=ALL-UNNAMED",
            "--add-opens",
            "jdk.management/com.sun.management.internal=ALL-UNNAMED",
            "--add-opens",
            "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.io=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens",
            "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.lang=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.util=ALL-UNNAMED",
            "-Dio.netty.tryReflectionSetAccessible=true",
            "-Dio.netty.allocator.useCacheForAllThreads=true",
            "-Dio.netty.allocator.maxOrder=11");

    @Override
    public String database() {
        return "cassandra";
    }

    @Override
    public int defaultPort() {
        return 19042;
    }

    @Override
    public List<Integer> extraPorts(int port) {
        return List.of(port + 1, port + 2);
    }

    @Override
    public List<String> command(Path dir, int port, String password, DbProfile profile) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.writeString(conf.resolve("cassandra.yaml"), yaml(data, port, profile));
        Files.writeString(
                conf.resolve("logback.xml"),
                """
                <configuration>
                  <appender name="STDOUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{20} - %msg%n</pattern></encoder>
                  </appender>
                  <root level="INFO"><appender-ref ref="STDOUT"/></root>
                </configuration>
                """);
        String classpath = Home.classpathOf("db-connectors/cassandra/server-classpath");
        String jamm = Arrays.stream(classpath.split(File.pathSeparator))
                .filter(entry -> entry.contains("jamm-"))
                .findFirst()
                .orElseThrow(() -> new UserError("jamm is missing from the Cassandra classpath; run ./bench build"));
        List<String> command =
                new ArrayList<>(List.of(Home.javaExecutable(), "-Xms1g", "-Xmx1g", "-javaagent:" + jamm));
        command.addAll(JDK17_FLAGS);
        command.addAll(List.of(
                "-Dcassandra.config=" + conf.resolve("cassandra.yaml").toUri(),
                "-Dlogback.configurationFile=" + conf.resolve("logback.xml"),
                "-Dcassandra.storagedir=" + data,
                "-Dcassandra.logdir=" + dir,
                "-Dcassandra-foreground=yes",
                "-Dcassandra.skip_wait_for_gossip_to_settle=0",
                "-Dcassandra.superuser_setup_delay_ms=0",
                "-Dcassandra.jmx.local.port=" + (port + 2),
                "-cp",
                classpath,
                "org.apache.cassandra.service.CassandraDaemon"));
        return command;
    }

    @Override
    public Map<String, String> settings(int port, String password) {
        return Map.of(
                "url", "127.0.0.1:" + port, "localDatacenter", "datacenter1", "user", SUPERUSER, "password", password);
    }

    /** Flushes the run's table to SSTables over the server's local JMX port (what nodetool flush does). */
    @Override
    @SuppressWarnings("BanJNDI") // JMX over RMI to the suite's own server on 127.0.0.1, for a flush that CQL lacks
    public Optional<String> settle(int port, Map<String, String> settings) {
        String keyspace = settings.getOrDefault("keyspace", "streambench");
        String table = settings.getOrDefault("table", "sensor_records");
        JMXServiceURL url;
        try {
            url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + (port + 2) + "/jmxrmi");
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
        try (JMXConnector jmx = JMXConnectorFactory.connect(url)) {
            jmx.getMBeanServerConnection()
                    .invoke(
                            new ObjectName("org.apache.cassandra.db:type=StorageService"),
                            "forceKeyspaceFlush",
                            new Object[] {keyspace, new String[] {table}},
                            new String[] {String.class.getName(), String[].class.getName()});
            return Optional.of("flush of " + keyspace + "." + table + " over JMX");
        } catch (IOException | JMException e) {
            throw new UserError("cannot flush the local cassandra over JMX (port " + (port + 2) + "): " + e);
        }
    }

    /** Before {@link #secure} ran once on this data folder, the superuser has Cassandra's default password. */
    @Override
    public Map<String, String> probeSettings(Path dir, int port, String password) {
        return Files.exists(dir.resolve(SECURED_MARKER))
                ? settings(port, password)
                : Map.of(
                        "url",
                        "127.0.0.1:" + port,
                        "localDatacenter",
                        "datacenter1",
                        "user",
                        SUPERUSER,
                        "password",
                        SUPERUSER);
    }

    @Override
    public void secure(Path dir, Map<String, String> probeSettings, String password) {
        if (Files.exists(dir.resolve(SECURED_MARKER))) {
            return;
        }
        String[] hostPort = probeSettings.get("url").split(":");
        try (CqlSession session = AdminSessions.open(
                new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])), SUPERUSER, SUPERUSER)) {
            // CQL takes no bind marker here; the generated password has letters and digits only
            session.execute("ALTER ROLE " + SUPERUSER + " WITH PASSWORD = '" + password + "'");
            Files.createFile(dir.resolve(SECURED_MARKER));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Durable: a write is acknowledged once its commit log entry is synced; otherwise Cassandra's default, synced every 10 s.
     * Credentials are not cached (a client presents them once per connection, so a run does not notice): the start's
     * probe takes the generated password at once instead of after the cache's default 2 s.
     */
    private static String yaml(Path data, int port, DbProfile profile) {
        String commitLogSync = profile == DbProfile.DURABLE
                ? "commitlog_sync: batch"
                : "commitlog_sync: periodic\ncommitlog_sync_period: 10000ms";
        return """
                cluster_name: streambench
                num_tokens: 1
                initial_token: 0
                partitioner: org.apache.cassandra.dht.Murmur3Partitioner
                auto_bootstrap: false
                auto_snapshot: false
                data_file_directories: [%1$s/data]
                commitlog_directory: %1$s/commitlog
                saved_caches_directory: %1$s/saved_caches
                hints_directory: %1$s/hints
                cdc_raw_directory: %1$s/cdc_raw
                %4$s
                seed_provider:
                  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
                    parameters:
                      - seeds: "127.0.0.1:%3$d"
                listen_address: 127.0.0.1
                rpc_address: 127.0.0.1
                storage_port: %3$d
                native_transport_port: %2$d
                start_native_transport: true
                endpoint_snitch: SimpleSnitch
                authenticator: PasswordAuthenticator
                authorizer: AllowAllAuthorizer
                role_manager: CassandraRoleManager
                credentials_validity: 0ms
                """
                .formatted(data, port, port + 1, commitLogSync);
    }
}
