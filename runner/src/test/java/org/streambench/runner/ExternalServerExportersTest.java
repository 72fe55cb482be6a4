package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.runner.PrometheusApi.await;
import static org.streambench.runner.PrometheusApi.panelQueries;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * A database the suite did not start (--db-url) is seen through the exporters of its machine: the
 * suite's own PostgreSQL and MariaDB, each with Debian's exporter for it and a node exporter, named
 * with {@code bench monitor scrape}; the run's result.json then holds what grew in its window.
 */
@Tag("integration")
class ExternalServerExportersTest {

    static final String DASHBOARD = "streambench-database-machine.json";
    private static final List<Process> EXPORTERS = new ArrayList<>();

    @AfterAll
    static void stopTheExporters() throws InterruptedException {
        for (Process watcher : EXPORTERS) {
            watcher.descendants().forEach(ProcessHandle::destroy);
            watcher.destroy();
            watcher.waitFor();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "postgresql, prometheus-postgres-exporter, pg_stat_database_xact_commit{datid=, 'datname=\"postgres\"', 2, true",
        "mariadb, prometheus-mysqld-exporter, mysql_global_status_commands_total{command=\"update\"}, '', 1, true",
        // the suite's Redis keeps snapshots only (vendor defaults): no write to disk at each command
        "redis, prometheus-redis-exporter, redis_commands_total{, 'cmd=\"hset\"', 1, false"
    })
    void anExternalServersExportersShowTheRunsWindowInTheResult(
            String database,
            String exporter,
            String seriesStart,
            String seriesHolds,
            int perRecord,
            boolean syncsEachWrite,
            @TempDir Path tmp)
            throws Exception {
        ServerState server = TestServers.start(database);
        Map<String, String> settings = server.settings();
        String databaseExporter = start(exporter, serverOf(database, settings, server.port()), tmp);
        String nodeExporter = start("prometheus-node-exporter", Map.of(), tmp);
        Path out = tmp.resolve("run");
        TestRuns.withWork(tmp.resolve("work"), () -> {
            int prometheusPort = TestServers.freePort();
            CliResult monitor = CliResult.bench("monitor", "start", "--port", Integer.toString(prometheusPort));
            assertEquals(0, monitor.code(), monitor.toString());
            try {
                runScraped(database, settings, databaseExporter, nodeExporter, out);
                // the dashboard's panels of this database's exporter and of the node exporter, at "All"
                PrometheusApi prometheus = new PrometheusApi("http://127.0.0.1:" + prometheusPort);
                String prefix = seriesStart.substring(0, seriesStart.indexOf('_') + 1);
                for (String panelQuery : panelQueries(DASHBOARD, Map.of("exporter", ".*"))) {
                    if (panelQuery.contains("node_") || panelQuery.contains(prefix)) {
                        await(
                                "panel query " + panelQuery,
                                () -> prometheus.query(panelQuery),
                                result -> result.size() > 0,
                                Duration.ofSeconds(30));
                    }
                }
            } finally {
                CliResult stopped = CliResult.bench("monitor", "stop");
                assertEquals(0, stopped.code(), stopped.toString());
            }
        });

        Map<String, Object> resources = map(ResultFiles.read(out), "resources");
        long records = ((Number) resources.get("records")).longValue();
        assertTrue(records > 0, resources.toString());
        Map<String, Object> exporters = map(resources, "exporters");
        assertEquals(
                List.of("db", "dbnode"), exporters.keySet().stream().sorted().toList(), resources.toString());

        Map<String, Object> db = map(exporters, "db");
        assertEquals(databaseExporter, db.get("url"));
        double grew = map(db, "counterGrowth").entrySet().stream()
                .filter(series -> series.getKey().startsWith(seriesStart)
                        && series.getKey().contains(seriesHolds))
                .mapToDouble(series -> ((Number) series.getValue()).doubleValue())
                .sum();
        // the exporter is read a few milliseconds after the window's ends, as the records are counted, and a
        // scrape of its own takes a moment: a window of 4 s keeps that within the bounds (2 s once gave 31 % more)
        assertTrue(
                grew >= 0.8 * perRecord * records && grew <= 1.2 * perRecord * records + 100,
                seriesStart + " grew by " + grew + " for " + records + " records (" + perRecord + " each): " + db);

        Map<String, Object> node = map(exporters, "dbnode");
        assertTrue(((Number) node.get("busyCpuSeconds")).doubleValue() > 0, node.toString());
        assertTrue(((Number) node.get("busyCpuSecondsPerMillionRecords")).doubleValue() > 0, node.toString());
        if (syncsEachWrite) {
            assertTrue(((Number) node.get("diskWriteBytes")).longValue() > 0, "the server syncs every commit: " + node);
        }
        assertTrue(
                String.valueOf(map(resources, "notSeen").get("database")).contains("resources.exporters: db ("),
                "the run says where to look: " + resources);
    }

    /** Names the two exporters with {@code bench monitor scrape} and runs Flink's update against the server. */
    private static void runScraped(
            String database, Map<String, String> settings, String databaseExporter, String nodeExporter, Path out) {
        CliResult added = CliResult.bench(
                "monitor", "scrape", "--add", "db=" + databaseExporter, "--add", "dbnode=" + nodeExporter);
        assertEquals(0, added.code(), added.toString());
        CliResult run = CliResult.bench(
                "run",
                "--engine",
                "flink",
                "--db",
                database,
                "--pattern",
                "update",
                "--blob",
                "100",
                "--keys",
                "500",
                "--duration",
                "4s",
                "--warmup",
                "1s",
                "--out",
                out.toString(),
                "--db-url",
                settings.get("url"),
                "--db-user",
                settings.get("user"),
                "--db-password",
                settings.get("password"));
        assertEquals(0, run.code(), run.toString());
        assertTrue(run.out().contains("0 mismatches"), run.out());
        assertTrue(run.out().contains("exporter dbnode: the machine busy"), run.out());
    }

    /** Each panel of the dashboard shows one exporter's series, so the cases above check every panel. */
    @Test
    void everyPanelOfTheDatabaseMachineDashboardIsCheckedByACase() throws IOException {
        for (String panelQuery : panelQueries(DASHBOARD, Map.of("exporter", ".*"))) {
            assertTrue(
                    Stream.of("node_", "pg_", "mysql_", "redis_")
                                    .filter(panelQuery::contains)
                                    .count()
                            == 1,
                    "one exporter's series in " + panelQuery);
        }
    }

    /** How {@code database}'s exporter finds the server and logs in: its environment. */
    private static Map<String, String> serverOf(String database, Map<String, String> settings, int port) {
        String user = settings.get("user");
        String password = settings.get("password");
        return switch (database) {
            case "postgresql" -> Map.of(
                    "DATA_SOURCE_NAME",
                    "postgresql://" + user + ":" + password + "@127.0.0.1:" + port + "/postgres?sslmode=disable");
            case "mariadb" -> Map.of("DATA_SOURCE_NAME", user + ":" + password + "@(127.0.0.1:" + port + ")/");
            case "redis" -> Map.of(
                    "REDIS_ADDR", "redis://127.0.0.1:" + port, "REDIS_USER", user, "REDIS_PASSWORD", password);
            default -> throw new IllegalArgumentException("no exporter case for " + database);
        };
    }

    /**
     * Starts {@code program} on a free port, with {@code environment} added, watched by a shell that
     * ends it when this JVM ends; its metrics URL.
     */
    private static String start(String program, Map<String, String> environment, Path dir) throws Exception {
        assertTrue(
                Stream.of(System.getenv("PATH").split(File.pathSeparator))
                        .anyMatch(folder -> Files.isExecutable(Path.of(folder, program))),
                program + " is not installed; ./bench test installs it (apt-get install " + program + ")");
        int port = TestServers.freePort();
        ProcessBuilder builder = new ProcessBuilder(
                        "sh",
                        "-c",
                        "\"$0\" --web.listen-address=127.0.0.1:" + port + " & exporter=$!; while kill -0 "
                                + ProcessHandle.current().pid()
                                + " 2>/dev/null && kill -0 $exporter 2>/dev/null; do sleep 1; done; kill $exporter",
                        program)
                .redirectErrorStream(true)
                .redirectOutput(Files.createTempFile(dir, program, ".log").toFile());
        builder.environment().putAll(environment);
        EXPORTERS.add(builder.start());
        String url = "http://127.0.0.1:" + port + "/metrics";
        HttpClient client = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            try {
                HttpResponse<String> answer = client.send(
                        HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200) {
                    return url;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            assertTrue(System.nanoTime() < deadline, program + " did not answer at " + url + " within 20 s");
            Thread.sleep(100);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        assertTrue(value instanceof Map, key + " is not an object in " + parent);
        return (Map<String, Object>) value;
    }
}
