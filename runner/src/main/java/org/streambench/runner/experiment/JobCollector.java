package org.streambench.runner.experiment;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.streambench.operators.JobProtocol;
import org.streambench.operators.JobReport;
import org.streambench.operators.WorkerStatus;

/**
 * The runner's end of a running job: every worker of the job (each JVM that hosts its operators,
 * locally one, on a cluster many) registers by pushing its status here, and the runner learns
 * from these statuses which workers there are (it reads each one's metrics every second and sends
 * each its control requests), whether one failed the run, and, once every worker pushed its final
 * status, the job's report with counts added up and latency histograms merged.
 * <p>
 * Workers push to the runner rather than the runner polling them, because on a cluster only the
 * runner's address is known in advance; each answer tells the worker the run's control state
 * (so a worker that starts late catches up) and what the other workers last reported (so every
 * worker knows when the whole job is done and drained).
 */
public final class JobCollector implements AutoCloseable {

    private static final Duration CONTROL_TIMEOUT = Duration.ofSeconds(5);

    private final HttpServer server;
    private final String url;
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(CONTROL_TIMEOUT).build();
    /** The latest status of every worker, in the order they registered; guarded by this. */
    private final Map<String, Received> workers = new LinkedHashMap<>();

    private Consumer<List<String>> newWorkerListener = hostPorts -> {};

    private final Map<String, MetricsScraper> scrapers = new ConcurrentHashMap<>();

    private boolean started; // guarded by this
    private boolean stopRequested; // guarded by this
    private String faultOwner; // guarded by this
    private boolean faultKillsItsWorker; // guarded by this
    private boolean engineReplacesWorkers; // guarded by this
    /**
     * Workers the run's {@code kill-worker} fault killed, or that the engine ended to replace them:
     * silent for good, their last counts kept; guarded by this.
     */
    private final Set<String> gone = new HashSet<>();
    /** Each worker's last metrics: the job's sums go on counting a killed worker's. */
    private final Map<String, MetricsScraper.Snapshot> lastSnapshots = new ConcurrentHashMap<>();

    private record Received(WorkerStatus status, long nanoTime) {}

    /**
     * @param bindHost      the address the collector listens on
     * @param advertisedHost the address workers reach it by (on a cluster: this machine's name, not 127.0.0.1)
     */
    public JobCollector(String bindHost, String advertisedHost) throws IOException {
        server = HttpServer.create(new InetSocketAddress(bindHost, 0), 32);
        server.createContext(JobProtocol.PUSH_PATH, this::handlePush);
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "streambench-collector");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        url = "http://" + advertisedHost + ":" + server.getAddress().getPort();
    }

    /**
     * The run's fault kills the JVM of the worker that fires it ({@code kill-worker}): once that
     * worker's status says it fired, the collector expects it to fall silent, leaves it out of the
     * control requests, the silence check and the final statuses it waits for, and keeps its last
     * counts in the job's, as an engine's replacement worker registers anew.
     */
    public synchronized void faultKillsItsWorker() {
        faultKillsItsWorker = true;
    }

    /**
     * The engine recovers by replacing a worker's JVM (a guarantee on a cluster: Apex's application
     * master ends the container of an operator that failed and deploys it again in a new one): a
     * worker whose status says its JVM was told to end mid-run is taken as {@link
     * #faultKillsItsWorker} takes the worker that fired the fault.
     */
    public synchronized void engineReplacesWorkers() {
        engineReplacesWorkers = true;
    }

    /** What workers push to, as the spec tells them. */
    public String url() {
        return url;
    }

    private void handlePush(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            int code = 200;
            String answer;
            try {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                answer = receive(WorkerStatus.fromText(body)).toText();
            } catch (RuntimeException e) {
                code = 400;
                answer = "unreadable worker status: " + e.getMessage() + "\n";
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(code, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Takes in a worker's status and answers with the view of the job that worker needs. */
    synchronized WorkerStatus.View receive(WorkerStatus status) {
        Received previous = workers.get(status.worker());
        if (previous == null) {
            List<String> hostPorts = Stream.concat(endpoints().stream(), Stream.of(status.endpoint()))
                    .map(endpoint -> URI.create(endpoint).getAuthority())
                    .toList();
            newWorkerListener.accept(hostPorts);
        }
        if (previous == null || !previous.status().isFinal() || status.isFinal()) {
            workers.put(status.worker(), new Received(status, System.nanoTime()));
        }
        if (status.claimsFault() && faultOwner == null) {
            // one fault per run, in the first worker whose operators found it due, whichever JVM holds them
            faultOwner = status.worker();
        }
        if ((faultKillsItsWorker && status.faultInjectedAtEpochMillis() > 0)
                || (engineReplacesWorkers && status.endedByEngineAtEpochMillis() > 0)) {
            gone.add(status.worker());
        }
        long emittingSince = 0;
        Map<Integer, Long> othersEmitted = new TreeMap<>();
        Set<Integer> othersEnded = new HashSet<>();
        long othersHandled = 0;
        long othersAwaitingCommit = 0;
        boolean allFinal = true;
        for (Received received : workers.values()) {
            WorkerStatus other = received.status();
            boolean isGone = gone.contains(other.worker());
            allFinal &= isGone || other.isFinal();
            emittingSince = WorkerStatus.earliest(emittingSince, other.emittingSinceEpochMillis());
            if (other.worker().equals(status.worker())) {
                continue;
            }
            WorkerStatus.mergeEmitted(othersEmitted, other.emittedByInstance());
            othersEnded.addAll(other.endedInstances());
            othersHandled += other.handled();
            // what a worker that is gone held for its checkpoint's commit died with it: the restore commits it again
            othersAwaitingCommit += isGone ? 0 : other.awaitingCommit();
        }
        return new WorkerStatus.View(
                started,
                stopRequested,
                othersEmitted,
                othersEnded,
                othersHandled,
                othersAwaitingCommit,
                allFinal,
                workers.size() - gone.size(),
                emittingSince,
                faultOwner);
    }

    /** The ids of the workers registered so far. */
    public synchronized List<String> workers() {
        return List.copyOf(workers.keySet());
    }

    /** Tells {@code listener} the endpoints ({@code host:port}) of all workers whenever a new one registers. */
    public synchronized void onNewWorker(Consumer<List<String>> listener) {
        this.newWorkerListener = listener;
    }

    /**
     * The endpoints of the workers alive, as far as the collector knows: all but those killed by
     * the run's fault or ended by their engine.
     */
    public synchronized List<String> endpoints() {
        return workers.values().stream()
                .filter(r -> !gone.contains(r.status().worker()))
                .map(r -> r.status().endpoint())
                .toList();
    }

    private synchronized boolean gone(String endpoint) {
        return goneEndpoints().contains(endpoint);
    }

    private synchronized List<String> goneEndpoints() {
        return workers.values().stream()
                .filter(r -> gone.contains(r.status().worker()))
                .map(r -> r.status().endpoint())
                .toList();
    }

    /**
     * Sends a control request ({@link JobProtocol#START_PATH}, {@code MEASURE_PATH}, {@code STOP_PATH})
     * to every worker registered so far; workers that register later learn start and stop from
     * the collector's answers.
     */
    public void control(String path) throws IOException, InterruptedException {
        synchronized (this) {
            started |= path.equals(JobProtocol.START_PATH);
            stopRequested |= path.equals(JobProtocol.STOP_PATH);
        }
        for (String endpoint : endpoints()) {
            HttpResponse<Void> response;
            try {
                response = client.send(
                        HttpRequest.newBuilder(URI.create(endpoint + path))
                                .timeout(CONTROL_TIMEOUT)
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                if (gone(endpoint)) {
                    continue; // killed or ended meanwhile
                }
                throw e;
            }
            if (response.statusCode() != 200) {
                throw new IOException(endpoint + path + " answered " + response.statusCode());
            }
        }
    }

    /**
     * Every worker's metrics, added up, a killed worker's as it last answered; no worker alive is
     * an error. The sum takes the job's clock from the first worker alive.
     */
    public MetricsScraper.Snapshot scrape() throws IOException, InterruptedException {
        List<String> endpoints = endpoints();
        if (endpoints.isEmpty()) {
            throw new IOException("no worker of the job has registered yet");
        }
        MetricsScraper.Snapshot sum = null;
        List<String> frozen = new ArrayList<>(goneEndpoints());
        for (String endpoint : endpoints) {
            MetricsScraper.Snapshot one;
            try {
                one = scrapers.computeIfAbsent(endpoint, MetricsScraper::new).scrape();
            } catch (IOException e) {
                if (gone(endpoint)) {
                    frozen.add(endpoint); // killed or ended meanwhile
                    continue;
                }
                throw e;
            }
            lastSnapshots.put(endpoint, one);
            sum = sum == null ? one : sum.plus(one);
        }
        if (sum == null) {
            throw new IOException("no worker of the job answered");
        }
        for (String endpoint : frozen) {
            MetricsScraper.Snapshot last = lastSnapshots.get(endpoint);
            if (last != null) {
                sum = sum.plus(last);
            }
        }
        return sum;
    }

    /** Why a worker failed the run, if one did (the first that reported it). */
    public synchronized Optional<String> failure() {
        return workers.values().stream()
                .map(r -> r.status().failure())
                .filter(reason -> reason != null)
                .findFirst();
    }

    /** Whether at least one worker registered and every registered worker has pushed its final status. */
    public synchronized boolean allFinal() {
        return !workers.isEmpty()
                && workers.values().stream()
                        .allMatch(r ->
                                r.status().isFinal() || gone.contains(r.status().worker()));
    }

    /** Workers that have not pushed for longer than {@code silence}: on a cluster, a worker that died. */
    public synchronized List<String> silentWorkers(Duration silence) {
        long now = System.nanoTime();
        List<String> silent = new ArrayList<>();
        workers.forEach((id, received) -> {
            if (!received.status().isFinal() && !gone.contains(id) && now - received.nanoTime() > silence.toNanos()) {
                silent.add(id);
            }
        });
        return silent;
    }

    /** The job's report from its workers' latest statuses; null if no worker ever registered. */
    public synchronized JobReport report(String status, String error) {
        if (workers.isEmpty()) {
            return null;
        }
        return JobReport.of(
                status, error, workers.values().stream().map(Received::status).toList());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
