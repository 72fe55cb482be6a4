package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.runner.PrometheusApi.await;
import static org.streambench.runner.PrometheusApi.panelQueries;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.Home;
import org.streambench.runner.monitor.DeviceUsage;
import org.streambench.runner.monitor.Prometheus;
import org.streambench.servers.TestServers;

/**
 * bench monitor runs a real Prometheus that finds the jobs as they come and go: while a run goes
 * on, its throughput is in Prometheus; when the job ends, it is no longer scraped.
 */
@Tag("integration")
class MonitorTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LIVE_RUN = "streambench-live-run.json";
    private static final String MATRIX = "streambench-matrix.json";
    private static final Map<String, String> THIS_RUN =
            Map.of("engine", "flink", "database", "postgresql", "pattern", "insert", "blob_bytes", "1");
    private static final Map<String, String> ALL =
            Map.of("engine", ".*", "database", ".*", "pattern", ".*", "blob_bytes", ".*");

    @TempDir
    static Path tmp;

    /** The suite's work folder for these runs; result folders go beside it (never inside: the runner refuses that). */
    private static Path work;

    private static int port;
    private static String url;
    private static PrometheusApi prometheus;

    @BeforeAll
    static void startPrometheus() {
        work = tmp.resolve("work");
        port = TestServers.freePort();
        CliResult started = inWork(work, () -> CliResult.bench("monitor", "start", "--port", Integer.toString(port)));
        assertEquals(0, started.code(), started.toString());
        url = "http://127.0.0.1:" + port;
        prometheus = new PrometheusApi(url);
        assertTrue(started.out().contains(url), started.toString());
    }

    @AfterAll
    static void stopPrometheus() {
        CliResult stopped = inWork(work, () -> CliResult.bench("monitor", "stop"));
        assertEquals(0, stopped.code(), stopped.toString());
    }

    @Test
    @RunsAlone("the throughput panel shows about the run's 2,000 records/s")
    void aRunningJobIsScrapedEverySecondAndDroppedWhenItEnds() throws Exception {
        Path out = tmp.resolve("run");
        CompletableFuture<CliResult> run = CompletableFuture.supplyAsync(() -> inWork(
                work,
                () -> CliResult.bench(("run --engine flink --db postgresql --db-port " + TestServers.freePort()
                                + " --pattern insert --blob 1 --rate 2000 --duration 8s"
                                + " --warmup 1s --metrics-port 0 --out " + out)
                        .split(" "))));

        JsonNode series = await(
                "the run's records",
                () -> prometheus.query("streambench_records_total{run=\"" + out + "\"}"),
                result -> result.size() > 0,
                Duration.ofSeconds(60));
        assertEquals("job", series.get(0).get("metric").get("role").asText(), series.toString());
        // the live dashboard's throughput panel, as Grafana would send it for this run: more than half the target,
        // which a panel in records per minute or a total would miss (with three busy loops beside it, a CI run's never
        // showed 1,500)
        String throughputPanel = panelQueries(LIVE_RUN, THIS_RUN).get(0);
        assertTrue(throughputPanel.contains("streambench_records_total"), throughputPanel);
        JsonNode rate = await(
                "the throughput panel",
                () -> prometheus.query(throughputPanel),
                result -> result.size() > 0 && result.get(0).get("value").get(1).asDouble() > 1000,
                Duration.ofSeconds(30));
        assertTrue(rate.get(0).get("value").get(1).asDouble() < 2500, "about the target rate of 2000/s: " + rate);
        for (String panelQuery : panelQueries(LIVE_RUN, THIS_RUN)) {
            if (panelQuery.contains("streambench_device_")
                    && DeviceUsage.holding(work).isEmpty()) {
                continue; // the server's data on a tmpfs: no block device to watch
            }
            await(
                    "panel query " + panelQuery,
                    () -> prometheus.query(panelQuery),
                    result -> result.size() > 0,
                    Duration.ofSeconds(30));
        }

        // the runner's own series: what each part of the pipeline uses, the database server included
        JsonNode cpu = await(
                "the CPU of every role",
                () -> prometheus.query(
                        "sum by (role) (rate(streambench_process_cpu_seconds_total{run=\"" + out + "\"}[4s]))"),
                result -> result.size() == 3,
                Duration.ofSeconds(30));
        for (JsonNode role : cpu) {
            assertTrue(
                    role.get("value").get(1).asDouble() > 0,
                    "every role works while 2000 records/s go into the database: " + cpu);
        }
        JsonNode written = prometheus.query("rate(streambench_device_written_bytes_total{run=\"" + out + "\"}[4s])");
        if (DeviceUsage.holding(work).isPresent()) { // not on a tmpfs
            assertTrue(written.get(0).get("value").get(1).asDouble() > 0, "the server's WAL: " + written);
        }

        CliResult finished = run.get(3, TimeUnit.MINUTES);
        assertEquals(0, finished.code(), finished.toString());
        JsonNode result = JSON.readTree(out.resolve("result.json").toFile());
        double resultThroughput = result.get("throughput").get("mean").asDouble();
        double generated = result.get("rate").get("generated").asDouble();
        // a generator that a slow start held back in the warm-up catches up in the window, above 2000/s
        assertTrue(generated >= 1900, "the generators kept the target rate: " + result.get("rate"));
        // a backlog the warm-up left is worked off in the window, so the window may process more than it emitted
        assertTrue(
                resultThroughput >= generated * 0.95,
                "result.json: the window processed at least what the generators emitted in it: " + resultThroughput
                        + " against " + result.get("rate"));
        JsonNode counts = result.get("counts");
        long processed = 0;
        for (JsonNode operation : counts.get("processed")) {
            processed += operation.asLong();
        }
        assertEquals(
                counts.get("emitted").asLong(), processed, "the run processed every record emitted, once: " + counts);
        screenshotTheGraphOf("sum by (engine, database) (rate(streambench_records_total[3s]))");
        try (Stream<Path> targets = Files.list(work.resolve("monitor").resolve("targets"))) {
            assertEquals(
                    0, targets.filter(p -> p.toString().endsWith(".json")).count(), "the job's target file is removed");
        }
        JsonNode active = await(
                "the job dropped from the targets",
                () -> prometheus.get("/api/v1/targets?state=active").get("data").get("activeTargets"),
                targets -> targets.size() == 0,
                Duration.ofSeconds(30));
        assertEquals(0, active.size());
    }

    @Test
    void aRunningMatrixShowsItsProgressAndEveryMatrixPanelHasData() throws Exception {
        Path out = tmp.resolve("matrix");
        CompletableFuture<CliResult> matrix = CompletableFuture.supplyAsync(() -> inWork(
                work,
                () -> CliResult.bench(("matrix --engines flink --databases noop --patterns mixed --blobs 1000,100,1"
                                + " --rate 2000 --duration 3s --warmup 1s --metrics-port 0 --out " + out)
                        .split(" "))));
        JsonNode planned = await(
                "the matrix's plan",
                () -> prometheus.query("streambench_matrix_experiments{state=\"planned\"}"),
                result -> result.size() > 0,
                Duration.ofSeconds(60));
        assertEquals(3, planned.get(0).get("value").get(1).asInt(), planned.toString());
        // the finished-experiment panels have data once the first experiment ended; the running one meanwhile
        for (String panelQuery : panelQueries(MATRIX, ALL)) {
            await(
                    "matrix panel query " + panelQuery,
                    () -> prometheus.query(panelQuery),
                    result -> result.size() > 0,
                    Duration.ofSeconds(90));
        }
        CliResult finished = matrix.get(5, TimeUnit.MINUTES);
        assertEquals(0, finished.code(), finished.toString());
        await(
                "the matrix dropped from the targets",
                () -> prometheus.get("/api/v1/targets?state=active").get("data").get("activeTargets"),
                targets -> targets.size() == 0,
                Duration.ofSeconds(30));
    }

    @Test
    void anExporterNamedWithScrapeIsScrapedUntilRemoved() throws Exception {
        // Prometheus's own endpoint stands in for an exporter on an external database's machine
        CliResult added = inWork(work, () -> CliResult.bench("monitor", "scrape", "--add", "self=" + url + "/metrics"));
        assertEquals(0, added.code(), added.toString());
        try {
            JsonNode up = await(
                    "the exporter scraped",
                    () -> prometheus.query("up{exporter=\"self\", role=\"exporter\"}"),
                    result -> result.size() == 1
                            && result.get(0).get("value").get(1).asText().equals("1"),
                    Duration.ofSeconds(30));
            assertEquals(1, up.size(), up.toString());
            CliResult listed = inWork(work, () -> CliResult.bench("monitor", "status"));
            assertTrue(listed.out().contains("exporter self  " + url + "/metrics"), listed.toString());
            CliResult unknown = inWork(work, () -> CliResult.bench("monitor", "scrape", "--remove", "other"));
            assertEquals(2, unknown.code(), unknown.toString());
            assertTrue(unknown.err().contains("the suite scrapes self"), unknown.toString());
        } finally {
            CliResult removed = inWork(work, () -> CliResult.bench("monitor", "scrape", "--remove", "self"));
            assertEquals(0, removed.code(), removed.toString());
        }
        await(
                "the exporter dropped from the targets",
                () -> prometheus.get("/api/v1/targets?state=active").get("data").get("activeTargets"),
                targets -> !targets.toString().contains("\"exporter\":\"self\""),
                Duration.ofSeconds(30));
    }

    @Test
    void withMonitorARunUsesTheRunningPrometheusSaysWhereToLookAndLeavesItRunning() {
        Path out = tmp.resolve("monitored");
        CliResult monitored = inWork(
                work,
                () -> CliResult.bench(("run --monitor --engine flink --db noop --rate 500 --duration 3s --warmup 1s"
                                + " --metrics-port 0 --out " + out)
                        .split(" ")));
        assertEquals(0, monitored.code(), monitored.toString());
        assertTrue(monitored.out().contains("watch it live: " + url + "/graph?g0.expr="), monitored.toString());
        assertFalse(monitored.out().contains("prometheus stopped"), "it was not started by this run");
        assertTrue(new Prometheus(work, new PrintWriter(Writer.nullWriter()))
                .running()
                .isPresent());
    }

    @Test
    @SuppressWarnings("try") // the socket is held open, unused, to take the port
    void withMonitorAndNoPrometheusPossibleNothingStarts(@TempDir Path otherWork) throws IOException {
        // the default port taken (by this socket, or by whatever holds it already)
        try (ServerSocket taken = takeIfFree(Prometheus.DEFAULT_PORT)) {
            Path out = otherWork.resolve("run");
            CliResult refused = inWork(
                    otherWork.resolve("work"),
                    () -> CliResult.bench(
                            ("run --monitor --db noop --duration 3s --warmup 1s --metrics-port 0 --out " + out)
                                    .split(" ")));
            assertEquals(2, refused.code(), refused.toString());
            assertEquals(1, refused.err().strip().lines().count(), refused.toString());
            assertTrue(refused.err().contains("port " + Prometheus.DEFAULT_PORT + " is in use"), refused.toString());
            assertFalse(Files.exists(out), "nothing was written");
        }
    }

    private static ServerSocket takeIfFree(int port) {
        try {
            ServerSocket socket = new ServerSocket();
            socket.bind(new InetSocketAddress("127.0.0.1", port));
            return socket;
        } catch (IOException alreadyTaken) {
            return null;
        }
    }

    /** Every dashboard's panels are queried: the live run's and the matrix's here, the database machine's by ExternalServerExportersTest. */
    @Test
    void everyDashboardsPanelsAreQueriedByATest() throws IOException {
        assertEquals(
                List.of(
                        Home.root().resolve("grafana/dashboards").resolve(ExternalServerExportersTest.DASHBOARD),
                        Home.root().resolve("grafana/dashboards").resolve(LIVE_RUN),
                        Home.root().resolve("grafana/dashboards").resolve(MATRIX)),
                DashboardsTest.dashboards());
    }

    @Test
    void theGeneratedConfigPassesPromtool() throws Exception {
        Process check = new ProcessBuilder(
                        "promtool",
                        "check",
                        "config",
                        work.resolve("monitor").resolve("prometheus.yml").toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, check.waitFor(), output);
        assertTrue(output.contains("SUCCESS"), output);
    }

    @Test
    void aSecondPrometheusOnATakenPortIsOneClearLineAndExit2(@TempDir Path otherWork) {
        CliResult second =
                inWork(otherWork, () -> CliResult.bench("monitor", "start", "--port", Integer.toString(port)));
        assertEquals(2, second.code(), second.toString());
        assertEquals(1, second.err().strip().lines().count(), second.toString());
        assertTrue(second.err().contains("port " + port + " is in use"), second.toString());
        assertFalse(new Prometheus(otherWork, new PrintWriter(Writer.nullWriter()))
                .running()
                .isPresent());
    }

    @Test
    void statusSaysWhereItRuns() {
        CliResult status = inWork(work, () -> CliResult.bench("monitor", "status"));
        assertEquals(0, status.code(), status.toString());
        assertTrue(status.out().contains("prometheus running") && status.out().contains(url), status.toString());
    }

    /** Prometheus's own graph page in headless Chromium, kept in target/ so a person can see it worked. */
    private static void screenshotTheGraphOf(String promql) throws Exception {
        Path screenshot = Files.createDirectories(Path.of("target", "monitor")).resolve("prometheus-graph.png");
        Files.deleteIfExists(screenshot);
        Process chromium = new ProcessBuilder(
                        "chromium",
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--hide-scrollbars",
                        "--virtual-time-budget=10000",
                        "--window-size=1400,900",
                        "--screenshot=" + screenshot.toAbsolutePath(),
                        url + "/graph?g0.expr=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)
                                + "&g0.tab=0&g0.range_input=1m")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue(chromium.waitFor(90, TimeUnit.SECONDS), "chromium ended");
        BufferedImage shot = ImageIO.read(screenshot.toFile());
        assertEquals(1400, shot.getWidth());
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < shot.getHeight(); y += 3) {
            for (int x = 0; x < shot.getWidth(); x += 3) {
                colours.add(shot.getRGB(x, y));
            }
        }
        assertTrue(colours.size() > 50, "the screenshot shows a rendered page: " + colours.size() + " colours");
    }

    private static synchronized CliResult inWork(Path dir, Supplier<CliResult> call) {
        TestServers.registerWork(dir); // its Prometheus is stopped by the next ./bench if this JVM is killed
        String previous = System.getProperty("streambench.work");
        System.setProperty("streambench.work", dir.toString());
        try {
            return call.get();
        } finally {
            if (previous == null) {
                System.clearProperty("streambench.work");
            } else {
                System.setProperty("streambench.work", previous);
            }
        }
    }
}
