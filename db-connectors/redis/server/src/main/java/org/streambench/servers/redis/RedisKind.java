package org.streambench.servers.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.streambench.local.UserError;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServerKind;
import org.streambench.servers.LocalServers;

/**
 * Redis from Debian's {@code redis-server} (7.0, BSD-licensed), as its own process: 127.0.0.1
 * only, no Unix socket, the generated password required ({@code requirepass}, in a configuration
 * file only the owner reads, never on the command line), and Redis's default persistence (RDB
 * snapshots, no append-only file). It keeps everything in memory: {@code maxmemory} caps it so that
 * a long run of 100,000 B records fails with Redis's out-of-memory error instead of exhausting the
 * machine.
 */
public final class RedisKind implements LocalServerKind {

    static final String PROGRAM = "redis-server";
    static final String MAX_MEMORY = "8gb";

    @Override
    public String database() {
        return "redis";
    }

    @Override
    public int defaultPort() {
        return 16379;
    }

    @Override
    public List<String> command(Path dir, int port, String password, DbProfile profile) throws IOException {
        Path program = program();
        Path data = Files.createDirectories(dir.resolve("data"));
        StringBuilder config = new StringBuilder()
                .append("bind 127.0.0.1\n")
                .append("port ")
                .append(port)
                .append('\n')
                .append("protected-mode yes\n")
                .append("daemonize no\n")
                .append("logfile \"\"\n")
                .append("dir ")
                .append(data)
                .append('\n')
                .append("requirepass ")
                .append(password)
                .append('\n')
                .append("maxmemory ")
                .append(MAX_MEMORY)
                .append('\n');
        if (profile == DbProfile.FAST) {
            config.append("save \"\"\nappendonly no\n");
        } else if (profile == DbProfile.DURABLE) {
            config.append("appendonly yes\nappendfsync always\n");
        }
        Path file = dir.resolve("redis.conf");
        LocalServers.writePrivate(file, config.toString());
        return List.of(program.toString(), file.toString());
    }

    private static Path program() {
        for (String folder : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(folder.isEmpty() ? "." : folder, PROGRAM);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new UserError(PROGRAM + " is not installed; install it (apt-get install redis-server, which ./bench"
                + " does itself when it runs as root)");
    }

    @Override
    public Map<String, String> settings(int port, String password) {
        return Map.of("url", "redis://127.0.0.1:" + port, "user", "default", "password", password);
    }
}
