package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.runner.EndToEndTest.map;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServers;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * {@code --db-profile fast} relaxes the durability of the suite's own servers, and only there;
 * every result says which profile its server ran, and what was in force. Servers of their own
 * work folder, so the other tests' servers keep the vendor defaults.
 */
@Tag("integration")
class DbProfileTest {

    @TempDir
    Path tmp;

    @Test
    void aFastPostgresqlRunsWithoutFsyncAndAServerOfTheOtherProfileIsRefused() throws Exception {
        Path work = tmp.resolve("work");
        LocalServers servers = new LocalServers(work, new PrintWriter(System.out, true));
        int port = TestServers.freePort();
        try {
            servers.start("postgresql", port, "--port", DbProfile.FAST);
            TestRuns.withWork(work, () -> {
                Path fast = tmp.resolve("fast");
                CliResult run = CliResult.bench(runArgs(port, fast, "--db-profile", "fast"));
                assertEquals(0, run.code(), run.toString());
                assertTrue(run.out().contains("[FAST PROFILE: durability relaxed]"), run.out());
                Map<String, Object> result = ResultFiles.read(fast);
                assertEquals(0, map(result, "verification").get("mismatches"), result.toString());
                Map<String, Object> environment = map(result, "environment");
                assertEquals("fast", environment.get("databaseProfile"));
                Map<String, Object> durability = map(environment, "durability");
                for (String setting : List.of("fsync", "synchronous_commit", "full_page_writes")) {
                    assertEquals("off", durability.get(setting), setting + " in " + durability);
                }

                Path refused = tmp.resolve("default");
                CliResult defaultRun = CliResult.bench(runArgs(port, refused));
                assertEquals(2, defaultRun.code(), defaultRun.toString());
                assertTrue(
                        defaultRun.err().contains("postgresql already runs with the fast profile"), defaultRun.err());
                assertFalse(refused.toFile().exists(), "refused before anything was written");
            });
        } finally {
            servers.stop("postgresql");
        }
    }

    @Test
    void aFastMariadbFlushesItsRedoLogOnceASecond() {
        LocalServers servers = new LocalServers(tmp.resolve("work"), new PrintWriter(System.out, true));
        try {
            ServerState state = servers.start("mariadb", TestServers.freePort(), "--port", DbProfile.FAST);
            assertEquals(DbProfile.FAST, state.profile());
            try (Database db = Databases.open("mariadb", new DatabaseSettings(state.settings()))) {
                Map<String, String> durability = db.durabilitySettings();
                assertEquals("0", durability.get("innodb_flush_log_at_trx_commit"), durability.toString());
            }
        } finally {
            servers.stop("mariadb");
        }
    }

    @ParameterizedTest
    @CsvSource({"FAST, ASYNC_WAL", "DURABLE, FSYNC_WAL"})
    void anHbaseTableOfAProfileWritesItsWalAsThatProfileSays(DbProfile profile, String durability) {
        Map<String, String> settings = new HashMap<>(TestServers.start("hbase").settings());
        settings.putAll(LocalServers.profileSettings("hbase", profile));
        settings.put("table", "profile_test");
        try (Database db = Databases.open("hbase", new DatabaseSettings(settings))) {
            db.resetSchema();
            assertEquals(Map.of("tableDurability", durability), db.durabilitySettings());
        }
    }

    @Test
    void aDurableRedisFsyncsEveryWriteToItsAppendOnlyFile() {
        LocalServers servers = new LocalServers(tmp.resolve("work"), new PrintWriter(System.out, true));
        try {
            ServerState state = servers.start("redis", TestServers.freePort(), "--port", DbProfile.DURABLE);
            assertEquals(DbProfile.DURABLE, state.profile());
            try (Database db = Databases.open("redis", new DatabaseSettings(state.settings()))) {
                Map<String, String> durability = db.durabilitySettings();
                assertEquals("yes", durability.get("appendonly"), durability.toString());
                assertEquals("always", durability.get("appendfsync"), durability.toString());
            }
        } finally {
            servers.stop("redis");
        }
    }

    /** A store that keeps nothing on disk has no durable profile: refused in one line, before anything starts. */
    @ParameterizedTest
    @ValueSource(strings = {"hazelcast", "ignite", "mongodb"})
    void aStoreWithoutADiskRefusesTheDurableProfile(String database) throws Exception {
        Path work = tmp.resolve("work");
        TestRuns.withWork(work, () -> {
            Path out = tmp.resolve("refused");
            CliResult run =
                    CliResult.bench("run", "--db", database, "--db-profile", "durable", "--out", out.toString());
            assertEquals(2, run.code(), run.toString());
            assertEquals(
                    "bench: " + database
                            + " keeps nothing on disk, so it has no durable profile; leave out --db-profile",
                    run.err().strip().lines().findFirst().orElse(""),
                    run.toString());
            assertFalse(out.toFile().exists(), "refused before anything was written");
            assertFalse(work.resolve("servers").resolve(database).toFile().exists(), "no server was started");
        });
    }

    private static String[] runArgs(int port, Path out, String... options) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--db",
                "postgresql",
                "--db-port",
                Integer.toString(port),
                "--pattern",
                "update",
                "--keys",
                "200",
                "--duration",
                "2s",
                "--warmup",
                "1s",
                "--metrics-port",
                "0",
                "--out",
                out.toString()));
        args.addAll(List.of(options));
        return args.toArray(String[]::new);
    }
}
