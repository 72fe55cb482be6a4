package org.streambench.servers.ignite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.streambench.local.Home;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServerKind;
import org.streambench.servers.ServerMain;

/**
 * An Apache Ignite 2.17 server node in its own JVM, alone, every port on 127.0.0.1: the thin-client
 * port, discovery on the next, communication on the one after; the legacy binary REST connector
 * off. Ignite's defaults otherwise: data in memory only (the default data region, off heap, no
 * native persistence), caches with no backups. Ignite authenticates users only with native
 * persistence on, which would make it another disk-based store, so the node, like HBase here,
 * relies on loopback alone. The data region is capped at 8 GB: a run that would store more fails
 * with Ignite's out-of-memory error instead of exhausting the machine.
 */
public final class IgniteKind implements LocalServerKind {

    /** What Ignite 2.17 needs opened on Java 17 (its own launch script's list). */
    static final List<String> OPENS = List.of(
            "java.base/jdk.internal.access",
            "java.base/jdk.internal.misc",
            "java.base/sun.nio.ch",
            "java.base/sun.util.calendar",
            "java.management/com.sun.jmx.mbeanserver",
            "jdk.internal.jvmstat/sun.jvmstat.monitor",
            "java.base/sun.reflect.generics.reflectiveObjects",
            "jdk.management/com.sun.management.internal",
            "java.base/java.io",
            "java.base/java.nio",
            "java.base/java.net",
            "java.base/java.util",
            "java.base/java.util.concurrent",
            "java.base/java.util.concurrent.locks",
            "java.base/java.util.concurrent.atomic",
            "java.base/java.lang",
            "java.base/java.lang.invoke",
            "java.base/java.math",
            "java.sql/java.sql",
            "java.base/java.lang.reflect",
            "java.base/java.time",
            "java.base/java.text",
            "java.management/sun.management");

    @Override
    public String database() {
        return "ignite";
    }

    @Override
    public int defaultPort() {
        return 18800;
    }

    /** Discovery and communication. */
    @Override
    public List<Integer> extraPorts(int port) {
        return List.of(port + 1, port + 2);
    }

    @Override
    public boolean keepsDataOnDisk() {
        return false;
    }

    @Override
    public List<String> command(Path dir, int port, String password, DbProfile profile) {
        List<String> command = new ArrayList<>(List.of(Home.javaExecutable(), "-Xmx2g"));
        OPENS.forEach(open -> command.add("--add-opens=" + open + "=ALL-UNNAMED"));
        command.addAll(List.of(
                "-XX:+ExitOnOutOfMemoryError",
                "-Djava.net.preferIPv4Stack=true",
                "-DIGNITE_UPDATE_NOTIFIER=false",
                "-DIGNITE_QUIET=true",
                "-DIGNITE_NO_ASCII=true",
                "-DIGNITE_NO_SHUTDOWN_HOOK=true",
                "-DIGNITE_PERFORMANCE_SUGGESTIONS_DISABLED=true",
                "-cp",
                Home.classpathOf("db-connectors/ignite/server"),
                IgniteNodeMain.class.getName(),
                Integer.toString(port),
                dir.toString()));
        return command;
    }

    /**
     * A client that connects while the node is still starting (its first partition exchange) can
     * make the node halt ("Failed to find completed exchange future"): the suite connects only
     * once the node says it has started.
     */
    @Override
    public boolean launcherDone(Path dir) {
        return Files.exists(dir.resolve(ServerMain.READY_FILE));
    }

    @Override
    public Map<String, String> settings(int port, String password) {
        return Map.of("url", "ignite://127.0.0.1:" + port);
    }
}
