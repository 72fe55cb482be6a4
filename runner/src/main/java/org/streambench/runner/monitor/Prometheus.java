package org.streambench.runner.monitor;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.streambench.local.UserError;

/**
 * A real Prometheus (the system's {@code prometheus} binary) run by the suite on 127.0.0.1, data
 * under {@code work/monitor/data}, scraping every second the job endpoints listed in
 * {@link ScrapeTargets}. Started and stopped by PID, like the local database servers.
 */
public final class Prometheus {

    public static final int DEFAULT_PORT = 9090;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final Path dir;
    private final PrintWriter out;

    public Prometheus(Path work, PrintWriter out) {
        this.dir = work.resolve("monitor");
        this.out = out;
    }

    /** A Prometheus the suite started that still runs. */
    public record Running(long pid, long startEpochMillis, int port) {
        public String url() {
            return "http://127.0.0.1:" + port;
        }

        /** Prometheus's graph page for {@code promql} over the last 15 minutes. */
        public String graphUrl(String promql) {
            return url() + "/graph?g0.expr=" + java.net.URLEncoder.encode(promql, StandardCharsets.UTF_8)
                    + "&g0.tab=0&g0.range_input=15m";
        }

        Optional<ProcessHandle> handle() {
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(h -> h.info()
                    .startInstant()
                    .map(start -> Math.abs(start.toEpochMilli() - startEpochMillis) < 1000)
                    .orElse(true));
        }
    }

    public Path configFile() {
        return dir.resolve("prometheus.yml");
    }

    public Optional<Running> running() {
        Path state = dir.resolve("prometheus.state");
        if (!Files.isRegularFile(state)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(state)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Running running = new Running(
                Long.parseLong(p.getProperty("pid")),
                Long.parseLong(p.getProperty("start")),
                Integer.parseInt(p.getProperty("port")));
        return running.handle().isPresent() ? Optional.of(running) : Optional.empty();
    }

    /** What {@link #start} would refuse (not installed, port taken), checked before anything starts. */
    public void checkStartable(int port) {
        if (running().isPresent()) {
            return;
        }
        if (!onPath("prometheus")) {
            throw new UserError("prometheus is not installed; run as root (./bench installs Debian's prometheus"
                    + " package with apt-get), or apt-get install prometheus");
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new UserError("port " + port + " is in use (another Prometheus?); choose another with --port");
        }
    }

    /** Starts Prometheus on {@code port}, or returns the one that runs. Bad input: {@link UserError}, nothing started. */
    public Running start(int port) throws IOException, InterruptedException {
        Optional<Running> already = running();
        if (already.isPresent()) {
            out.println("prometheus already runs: " + already.get().url() + " (pid "
                    + already.get().pid() + ")");
            return already.get();
        }
        checkStartable(port);
        new ScrapeTargets(dir.getParent()).removeEnded();
        writeConfig();
        check(configFile());
        Path log = dir.resolve("prometheus.log");
        List<String> command = new ArrayList<>(List.of(
                "setsid",
                "prometheus",
                "--config.file=" + configFile(),
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        Running running = new Running(
                process.pid(),
                process.info().startInstant().map(Instant::toEpochMilli).orElse(0L),
                port);
        writeState(running);
        awaitReady(process, running, log);
        out.println("prometheus: " + running.url() + " (pid " + running.pid() + "), scraping every second the jobs"
                + " listed in " + new ScrapeTargets(dir.getParent()).dir() + "; data in " + dir.resolve("data"));
        return running;
    }

    /** Stops the Prometheus the suite started; false if none ran. */
    public boolean stop() throws IOException, InterruptedException {
        Optional<Running> running = running();
        Files.deleteIfExists(dir.resolve("prometheus.state"));
        if (running.isEmpty()) {
            return false;
        }
        ProcessHandle handle = running.get().handle().orElse(null);
        if (handle == null) {
            return false;
        }
        handle.destroy();
        try {
            handle.onExit().get(20, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            handle.destroyForcibly();
        }
        return true;
    }

    private void writeConfig() throws IOException {
        Files.createDirectories(new ScrapeTargets(dir.getParent()).dir());
        String config = String.join(
                "\n",
                "# Written by bench monitor start: scrape every job endpoint the runner lists, every second.",
                "global:",
                "  scrape_interval: 1s",
                "  scrape_timeout: 1s",
                "  evaluation_interval: 1s",
                "scrape_configs:",
                "  - job_name: streambench",
                "    file_sd_configs:",
                "      - files: ['" + new ScrapeTargets(dir.getParent()).dir().resolve("*.json") + "']",
                "        refresh_interval: 1s",
                "");
        Files.writeString(configFile(), config, StandardCharsets.UTF_8);
    }

    /** {@code promtool check config}, where promtool is installed (it comes with Debian's package). */
    static void check(Path config) throws IOException, InterruptedException {
        if (!onPath("promtool")) {
            return;
        }
        Process check = new ProcessBuilder("promtool", "check", "config", config.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (check.waitFor() != 0) {
            throw new IllegalStateException("promtool rejects " + config + ": " + output.strip());
        }
    }

    private void writeState(Running running) throws IOException {
        Properties p = new Properties();
        p.setProperty("pid", Long.toString(running.pid()));
        p.setProperty("start", Long.toString(running.startEpochMillis()));
        p.setProperty("port", Integer.toString(running.port()));
        Path tmp = dir.resolve("prometheus.state.tmp");
        try (var writer = Files.newBufferedWriter(tmp)) {
            p.store(writer, "the Prometheus bench monitor start started");
        }
        Files.move(
                tmp,
                dir.resolve("prometheus.state"),
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }

    private void awaitReady(Process process, Running running, Path log) throws IOException, InterruptedException {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                Files.deleteIfExists(dir.resolve("prometheus.state"));
                throw new IllegalStateException("prometheus ended at its start (exit " + process.exitValue() + "): "
                        + lastLine(log) + " (log: " + log + ")");
            }
            try {
                HttpResponse<Void> ready = client.send(
                        HttpRequest.newBuilder(URI.create(running.url() + "/-/ready"))
                                .timeout(Duration.ofSeconds(1))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        stop();
        throw new IllegalStateException(
                "prometheus was not ready after " + READY_TIMEOUT.toSeconds() + " s (log: " + log + ")");
    }

    private static String lastLine(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return lines.isEmpty() ? "no output" : lines.get(lines.size() - 1);
    }

    private static boolean onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String folder : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(folder, program))) {
                return true;
            }
        }
        return false;
    }
}
