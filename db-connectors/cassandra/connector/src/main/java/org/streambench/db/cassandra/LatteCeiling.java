package org.streambench.db.cassandra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.streambench.db.CeilingProcess;
import org.streambench.db.CeilingTool;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseSettings;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.SensorRecord;

/**
 * latte (crates.io {@code latte-cli}: cassandra-stress is on no registry this suite can reach, and
 * latte takes a script of the exact statements, user and password) with {@code ceiling.rn}: the
 * processing operator's prepared statements on the suite's table, at the connector's write
 * consistency. One latte process per thread, each with one thread and one request in flight
 * ({@code -t 1 -p 1}): its cycles then run one after another from 0, so what each client wrote
 * follows from how many cycles it ran, and each client owns its keys (key index modulo the
 * clients), so no two read-modify-write cycles race on one row. No warm-up phase: latte's would
 * run the cycles from 0 again. The password goes to latte in its environment.
 *
 * <p>batch:N makes a cycle N records (still one cycle at a time, so the values stay known);
 * async:K runs each process with K cycles in flight ({@code -p K}); a key's next cycle comes
 * only after as many cycles as the client owns keys, which is at least {@link
 * #MIN_KEYS_PER_REQUEST_IN_FLIGHT} times K, so a key's cycles still run one after the other.
 */
final class LatteCeiling implements CeilingTool {

    static final String VERSION = "0.29.0";
    static final int MIN_KEYS_PER_REQUEST_IN_FLIGHT = 8;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String name() {
        return "latte";
    }

    @Override
    public String program() {
        return "latte";
    }

    @Override
    public String installCommand() {
        return "cargo install latte-cli --version " + VERSION + " --locked";
    }

    /**
     * async:K is latte's concurrency: K cycles in flight per client, as the connector's asynchronous
     * calls on its one session; batch:N is a cycle of N records whose reads the script issues together
     * and awaits, then their writes, as the connector's batch.
     */
    @Override
    public void check(Request request) {
        int clients = request.threads();
        CeilingTool.requireClients(name(), clients);
        Pattern pattern = request.pattern();
        // an update's values follow from its cycle's number only if a key's cycles never overlap
        long keysPerClient =
                request.inFlight() == 1 ? request.batch() : MIN_KEYS_PER_REQUEST_IN_FLIGHT * request.inFlight();
        if (pattern.needsExistingKeys() && request.keys() < clients * keysPerClient) {
            throw new DatabaseException("latte: " + request.keys() + " keys for " + clients + " threads; each thread"
                    + " updates keys of its own, at least " + keysPerClient + " per thread"
                    + (request.inFlight() > 1 ? " with " + request.inFlight() + " requests in flight" : "")
                    + ", so give at least " + clients * keysPerClient + " keys");
        }
    }

    @Override
    public Measurement run(Request request, DatabaseSettings settings, Path workDir) throws Exception {
        check(request);
        int clients = request.threads();
        Pattern pattern = request.pattern();
        Path script = workDir.resolve("ceiling.rn");
        try (InputStream rune = LatteCeiling.class.getResourceAsStream("ceiling.rn")) {
            Files.write(script, rune.readAllBytes());
        }
        CassandraDatabase.checkSettings(settings);
        String url = settings.require("url", "cassandra");
        List<List<String>> commands = new ArrayList<>();
        for (int client = 0; client < clients; client++) {
            Path rows = workDir.resolve("rows." + client);
            if (pattern.needsExistingKeys()) {
                writeOwnRows(rows, client, clients, request.keys());
            }
            List<String> command = new ArrayList<>(List.of(
                    program(),
                    "run",
                    script.toString(),
                    "--threads=1",
                    "--concurrency=" + request.inFlight(),
                    "--connections=1",
                    "--warmup=0",
                    "--duration=" + request.durationSeconds() + "s",
                    "--consistency=" + settings.get("writeConsistency", "ONE"),
                    "--datacenter=" + settings.get("localDatacenter", "datacenter1"),
                    "--quiet",
                    "--drop-sampling-log",
                    "--output=" + workDir.resolve("latte." + client + ".json")));
            String user = settings.get("user", "");
            if (!user.isEmpty()) {
                command.add("--user=" + user);
            }
            command.addAll(List.of(
                    "-P",
                    "table=\"" + CassandraDatabase.qualifiedTable(settings) + "\"",
                    "-P",
                    "pattern=\"" + pattern.cliName() + "\"",
                    "-P",
                    "blob=" + request.blobBytes(),
                    "-P",
                    "rows=\"" + (pattern.needsExistingKeys() ? rows.toString() : "") + "\"",
                    "-P",
                    "batch=" + request.batch(),
                    "-P",
                    "prefix=\"" + CeilingTool.newKey(client, 0).substring(0, 3) + "\""));
            command.addAll(List.of(url.split(",")));
            commands.add(command);
        }
        Map<String, String> environment = Map.of("CASSANDRA_PASSWORD", settings.get("password", ""));
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<String>> running = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                List<String> command = commands.get(client);
                Path log = workDir.resolve("latte." + client + ".out");
                running.add(pool.submit(
                        () -> CeilingProcess.run(command, environment, log, request.durationSeconds() + 120L)));
            }
            for (Future<String> client : running) {
                try {
                    client.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
        } finally {
            pool.shutdownNow();
        }
        long operations = 0;
        long inserts = 0;
        long updates = 0;
        double seconds = 0;
        Histogram latencies = new Histogram(3);
        List<String> insertedIds = new ArrayList<>();
        for (int client = 0; client < clients; client++) {
            JsonNode result = JSON.readTree(
                            workDir.resolve("latte." + client + ".json").toFile())
                    .path("result");
            long cycles = result.path("cycle_count").asLong();
            if (result.path("error_count").asLong() > 0) {
                throw new IOException("latte's client " + client + " had errors: " + result.path("errors"));
            }
            long records = cycles * request.batch();
            operations += records;
            seconds = Math.max(seconds, result.path("elapsed_time_s").asDouble());
            long clientInserts =
                    switch (pattern) {
                        case INSERT -> records;
                        case MIXED -> cycles / 2 * request.batch();
                        default -> 0;
                    };
            inserts += clientInserts;
            updates += switch (pattern) {
                case UPDATE -> records;
                case MIXED -> (cycles - cycles / 2) * request.batch();
                default -> 0;
            };
            if (clientInserts > 0) {
                insertedIds.add(CeilingTool.newKey(client, 1));
            }
            latencies.add(
                    histogram(result.path("cycle_latency").path("histogram").asText()));
        }
        boolean measured = latencies.getTotalCount() > 0;
        return new Measurement(
                version(),
                commands.get(0).stream()
                        .map(arg -> arg.replace(workDir + "/", ""))
                        .toList(),
                operations,
                seconds,
                inserts,
                updates,
                measured ? latencies.getMean() / 1000 : null,
                measured ? latencies.getValueAtPercentile(50) / 1000 : null,
                measured ? latencies.getValueAtPercentile(99) / 1000 : null,
                measured ? latencies.getMaxValue() / 1000 : null,
                insertedIds,
                "latte, one process per thread (the first one's command line; the others differ in rows.N, the"
                        + " new-key prefix and the report file), each "
                        + (request.inFlight() == 1 ? "one request at a time" : request.inFlight() + " cycles in flight")
                        + "; no warm-up; each client"
                        + " writes one BLOB of the size; an update writes the values it read plus 1 as bound values;"
                        + " latencies from latte's HDR histograms, merged"
                        + (request.batch() > 1
                                ? "; batch:" + request.batch() + " as a cycle of " + request.batch()
                                        + " reads issued together, then their writes, its latency the batch's"
                                : ""));
    }

    /** The prefilled keys client {@code client} of {@code clients} owns, with their prefilled values: {@code id,int_1,...,double_3}. */
    static void writeOwnRows(Path file, int client, int clients, long keys) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (long index = client; index < keys; index += clients) {
                SensorRecord r = RecordGenerator.prefill(index);
                out.write(Keys.existing(index) + "," + r.int1() + "," + r.int2() + "," + r.int3() + "," + r.double1()
                        + "," + r.double2() + "," + r.double3() + "\n");
            }
        }
    }

    /** latte's histogram: HdrHistogram's V2 compressed encoding, in base64, of latencies in ns. */
    static Histogram histogram(String base64) throws IOException {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new IOException("latte's report holds no histogram HdrHistogram can decode: " + e.getMessage(), e);
        }
    }

    private String version() throws IOException, InterruptedException {
        return CeilingProcess.version(program());
    }
}
