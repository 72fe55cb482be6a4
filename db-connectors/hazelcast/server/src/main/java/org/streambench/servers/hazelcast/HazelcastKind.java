package org.streambench.servers.hazelcast;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.streambench.local.Home;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServerKind;

/**
 * A Hazelcast member (the open-source edition) in its own JVM, bound to 127.0.0.1, alone (no
 * multicast or TCP join), with the vendor's default map settings (one synchronous backup, which a
 * member alone has nowhere to put; no persistence, which is an Enterprise feature). The open-source
 * edition has no users or passwords: a client must name the cluster, and the suite names it with the
 * password generated for this server, which only the owner can read (so the member logs nothing:
 * Hazelcast puts the cluster's name into every line it logs). Its heap holds every record:
 * 8 GB, and the member exits on running out of it, so a run that stores more fails instead of
 * slowing to a crawl.
 */
public final class HazelcastKind implements LocalServerKind {

    static final String HEAP = "-Xmx8g";

    @Override
    public String database() {
        return "hazelcast";
    }

    @Override
    public int defaultPort() {
        return 15701;
    }

    @Override
    public boolean keepsDataOnDisk() {
        return false;
    }

    @Override
    public List<String> command(Path dir, int port, String password, DbProfile profile) {
        return List.of(
                Home.javaExecutable(),
                HEAP,
                "-XX:+ExitOnOutOfMemoryError",
                // Hazelcast prefixes every log line with the cluster's name, which is the secret here
                "-Dhazelcast.logging.type=none",
                "-Djava.net.preferIPv4Stack=true",
                "-cp",
                Home.classpathOf("db-connectors/hazelcast/server"),
                HazelcastMemberMain.class.getName(),
                Integer.toString(port),
                dir.toString());
    }

    @Override
    public Map<String, String> settings(int port, String password) {
        return Map.of("url", "hazelcast://127.0.0.1:" + port, "password", password);
    }
}
