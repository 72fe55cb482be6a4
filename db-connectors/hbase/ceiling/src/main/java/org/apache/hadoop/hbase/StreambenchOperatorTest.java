package org.apache.hadoop.hbase;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.streambench.generator.Keys;

/**
 * The processing operator's calls as a PerformanceEvaluation command (HBase's own load tool runs
 * any {@code PerformanceEvaluation.Test} named on its command line; the class must sit in PE's
 * package because {@code TableTest} is package-private). PE gives the clients (one thread and one
 * connection each, {@code --nomapred}), the table and the latency histogram; this class gives the
 * calls, on the suite's table and row layout: a read is a {@code Get}; an insert a {@code Put} of a
 * new key; an update a {@code Get} and a {@code Put} of the six values plus 1 and a new BLOB;
 * mixed alternates a read that misses plus an insert with a read plus an update.
 *
 * <p>PE runs a fixed number of rows per client; a ceiling runs for a duration, so {@link
 * #testTimed()} calls {@link #testRow} until the duration has passed (after a warm-up that is not
 * counted). Settings come as {@code -Dstreambench.ceiling.*}: pattern, keys, blob, seconds,
 * warmup, out, batch and inflight. Each client writes {@code out/counts.<client>} ("operations inserts updates
 * nanoseconds: the
 * operations and time measured after the warm-up, the writes of the whole run) and {@code out/latency.<client>} (its latencies in µs, one per line).
 *
 * <p>Clients update disjoint keys (key index = client modulo clients), so no two read-modify-write
 * cycles race on one row and every update adds exactly 1 to int_1, which the runner checks.
 *
 * <p>Access modes, as the connector makes them: batch:N is one multi-get of N distinct keys and one
 * multi-put (an operation is then N records, its latency the batch's); async:K keeps K records in
 * flight on HBase's asynchronous client (AsyncTable), each a get and then a put, never two of one key
 * at a time.
 */
public class StreambenchOperatorTest extends PerformanceEvaluation.TableTest {

    static final String PREFIX = "streambench.ceiling.";
    private static final byte[] FAMILY = Bytes.toBytes("d");
    private static final byte[][] VALUE_COLUMNS = {
        Bytes.toBytes("int_1"), Bytes.toBytes("int_2"), Bytes.toBytes("int_3"),
        Bytes.toBytes("double_1"), Bytes.toBytes("double_2"), Bytes.toBytes("double_3")
    };
    private static final byte[] PAYLOAD = Bytes.toBytes("payload");

    private final String pattern;
    private final long keys;
    private final int seconds;
    private final int warmupSeconds;
    private final Path out;
    private final int client;
    private final int clients;
    private final byte[] blob;
    private final SplittableRandom random;
    private final int batch;
    private final int inFlight;
    private boolean flip;
    private long newKeys;
    private long operations;
    private long inserts;
    private long updates;
    private long measuredNanos;

    StreambenchOperatorTest(
            Connection connection, PerformanceEvaluation.TestOptions options, PerformanceEvaluation.Status status) {
        super(connection, options, status);
        pattern = required("pattern");
        keys = Long.parseLong(required("keys"));
        seconds = Integer.parseInt(required("seconds"));
        warmupSeconds = Integer.parseInt(required("warmup"));
        out = Path.of(required("out"));
        clients = options.getNumClientThreads();
        // PE gives client i the rows from i * rows; the command line sets --rows=1
        client = (int) options.getStartRow();
        random = new SplittableRandom(client * 7919L + 17);
        // random bytes, which nothing can compress; one BLOB per client, made once, as the other tools do
        blob = new byte[Integer.parseInt(required("blob"))];
        random.nextBytes(blob);
        batch = Integer.parseInt(required("batch"));
        inFlight = Integer.parseInt(required("inflight"));
        if (!pattern.equals("insert") && ownKeys() < Math.max(batch, inFlight)) {
            throw new IllegalArgumentException(keys + " keys for " + clients + " clients, batch " + batch + ", "
                    + inFlight + " in flight: each client needs that many keys of its own");
        }
    }

    private String required(String name) {
        String value = conf.get(PREFIX + name);
        if (value == null) {
            throw new IllegalArgumentException("-D" + PREFIX + name + " is not set");
        }
        return value;
    }

    @Override
    void testTimed() throws IOException, InterruptedException {
        if (inFlight > 1) {
            testTimedAsync();
            return;
        }
        long warmupEnd = System.nanoTime() + warmupSeconds * 1_000_000_000L;
        while (System.nanoTime() < warmupEnd) {
            testRow(0, System.nanoTime());
        }
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        long now = start;
        while (now < end) {
            long before = now;
            testRow(0, before);
            now = System.nanoTime();
            latencyHistogram.update((now - before) / 1000);
            operations += batch;
        }
        measuredNanos = now - start;
    }

    @Override
    boolean testRow(long row, long startTime) throws IOException {
        if (batch > 1) {
            testBatch();
            return true;
        }
        switch (pattern) {
            case "read" -> read(existingKey());
            case "insert" -> insert(newKey());
            case "update" -> update(existingKey());
            case "mixed" -> {
                flip = !flip;
                if (flip) {
                    byte[] key = newKey();
                    read(key);
                    insert(key);
                } else {
                    update(existingKey());
                }
            }
            default -> throw new IllegalArgumentException("unknown pattern " + pattern);
        }
        return true;
    }

    /** One batch: a multi-get of its keys, then (unless it reads only) one multi-put. */
    private void testBatch() throws IOException {
        boolean insertBatch = nextIsInsert();
        List<byte[]> batchKeys = new ArrayList<>(batch);
        if (insertBatch) {
            for (int i = 0; i < batch; i++) {
                batchKeys.add(newKey());
            }
        } else {
            Set<Long> chosen = new HashSet<>();
            while (batchKeys.size() < batch) {
                long own = random.nextLong(ownKeys());
                if (chosen.add(own)) {
                    batchKeys.add(existingKey(own));
                }
            }
        }
        Result[] previous = pattern.equals("insert")
                ? null
                : table.get(batchKeys.stream()
                        .map(key -> new Get(key).addFamily(FAMILY))
                        .toList());
        if (pattern.equals("read")) {
            return;
        }
        List<Put> puts = new ArrayList<>(batch);
        for (int i = 0; i < batch; i++) {
            puts.add(insertBatch ? newRow(batchKeys.get(i)) : updated(batchKeys.get(i), previous[i]));
        }
        table.put(puts);
        if (insertBatch) {
            inserts += batch;
        } else {
            updates += batch;
        }
    }

    /** async:K: K records in flight on the asynchronous client, each timed from its start to its last answer. */
    private void testTimedAsync() throws IOException, InterruptedException {
        try (AsyncConnection async = ConnectionFactory.createAsyncConnection(connection.getConfiguration())
                .get(1, TimeUnit.MINUTES)) {
            AsyncTable<?> asyncTable = async.getTable(table.getName());
            Semaphore slots = new Semaphore(inFlight);
            Set<Long> busy = ConcurrentHashMap.newKeySet();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long start = System.nanoTime() + warmupSeconds * 1_000_000_000L;
            long end = start + seconds * 1_000_000_000L;
            long now = System.nanoTime();
            while (now < end && failure.get() == null) {
                slots.acquire();
                long began = System.nanoTime();
                boolean counted = began >= start;
                // a failure is kept in `failure` and ends the loop
                CompletableFuture<Void> unused = startRecord(asyncTable, busy).whenComplete((written, error) -> {
                    long took = System.nanoTime() - began;
                    if (error != null) {
                        failure.compareAndSet(null, error);
                    } else {
                        synchronized (this) {
                            if (counted) {
                                latencyHistogram.update(took / 1000);
                                operations++;
                            }
                        }
                    }
                    slots.release();
                });
                now = System.nanoTime();
            }
            slots.acquire(inFlight);
            measuredNanos = Math.max(0, System.nanoTime() - start);
            if (failure.get() != null) {
                throw new IOException("an asynchronous call failed: " + failure.get(), failure.get());
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("could not open HBase's asynchronous connection: " + e, e);
        }
    }

    /** One record's calls on the asynchronous client; completes when its last call is answered. */
    private CompletableFuture<Void> startRecord(AsyncTable<?> asyncTable, Set<Long> busy) {
        boolean insertRecord = nextIsInsert();
        if (insertRecord) {
            byte[] key = newKey();
            CompletableFuture<?> read = pattern.equals("mixed")
                    ? asyncTable.get(new Get(key).addFamily(FAMILY))
                    : CompletableFuture.completedFuture(null);
            return read.thenCompose(missed -> asyncTable.put(newRow(key))).thenRun(() -> countInsert());
        }
        long own;
        do {
            own = random.nextLong(ownKeys());
        } while (!busy.add(own));
        long claimed = own;
        byte[] key = existingKey(own);
        CompletableFuture<Result> read = asyncTable.get(new Get(key).addFamily(FAMILY));
        CompletableFuture<Void> done = pattern.equals("read")
                ? read.thenRun(() -> {})
                : read.thenCompose(previous -> asyncTable.put(updated(key, previous)))
                        .thenRun(() -> countUpdate());
        return done.whenComplete((ignored, error) -> busy.remove(claimed));
    }

    /** Whether the next record (or batch) inserts: always for insert; every other one for mixed. */
    private boolean nextIsInsert() {
        if (pattern.equals("mixed")) {
            flip = !flip;
            return flip;
        }
        return pattern.equals("insert");
    }

    private synchronized void countInsert() {
        inserts++;
    }

    private synchronized void countUpdate() {
        updates++;
    }

    private Result read(byte[] key) throws IOException {
        return table.get(new Get(key).addFamily(FAMILY));
    }

    private void insert(byte[] key) throws IOException {
        table.put(newRow(key));
        inserts++;
    }

    private void update(byte[] key) throws IOException {
        table.put(updated(key, read(key)));
        updates++;
    }

    private Put newRow(byte[] key) {
        return put(key, 1, 2, 3, 1.5, 2.5, 3.5);
    }

    /** The six values of {@code previous} plus 1, and this client's BLOB. */
    private Put updated(byte[] key, Result previous) {
        if (previous.isEmpty()) {
            throw new IllegalStateException("prefilled key " + Bytes.toString(key) + " is not in the table");
        }
        return put(
                key,
                Bytes.toInt(previous.getValue(FAMILY, VALUE_COLUMNS[0])) + 1,
                Bytes.toInt(previous.getValue(FAMILY, VALUE_COLUMNS[1])) + 1,
                Bytes.toInt(previous.getValue(FAMILY, VALUE_COLUMNS[2])) + 1,
                Bytes.toDouble(previous.getValue(FAMILY, VALUE_COLUMNS[3])) + 1,
                Bytes.toDouble(previous.getValue(FAMILY, VALUE_COLUMNS[4])) + 1,
                Bytes.toDouble(previous.getValue(FAMILY, VALUE_COLUMNS[5])) + 1);
    }

    private Put put(byte[] key, int int1, int int2, int int3, double double1, double double2, double double3) {
        return new Put(key)
                .addColumn(FAMILY, VALUE_COLUMNS[0], Bytes.toBytes(int1))
                .addColumn(FAMILY, VALUE_COLUMNS[1], Bytes.toBytes(int2))
                .addColumn(FAMILY, VALUE_COLUMNS[2], Bytes.toBytes(int3))
                .addColumn(FAMILY, VALUE_COLUMNS[3], Bytes.toBytes(double1))
                .addColumn(FAMILY, VALUE_COLUMNS[4], Bytes.toBytes(double2))
                .addColumn(FAMILY, VALUE_COLUMNS[5], Bytes.toBytes(double3))
                .addColumn(FAMILY, PAYLOAD, blob);
    }

    /** How many prefilled keys are this client's own: those whose index is the client modulo clients. */
    private long ownKeys() {
        return (keys - client + clients - 1) / clients;
    }

    /** A random prefilled key of this client's own. */
    private byte[] existingKey() {
        return existingKey(random.nextLong(ownKeys()));
    }

    /** This client's {@code own}-th prefilled key. */
    private byte[] existingKey(long own) {
        return Bytes.toBytes(Keys.existing(client + clients * own));
    }

    /** n + the client's number (2 digits) + its own counter (9 digits): never a prefilled e... key. */
    private synchronized byte[] newKey() {
        newKeys++;
        return Bytes.toBytes(String.format(Locale.ROOT, "n%02d%09d", client, newKeys));
    }

    @Override
    synchronized void onTakedown() throws IOException {
        Files.writeString(
                out.resolve("counts." + client),
                operations + " " + inserts + " " + updates + " " + measuredNanos + "\n",
                StandardCharsets.UTF_8);
        Files.writeString(
                out.resolve("latency." + client),
                Arrays.stream(latencyHistogram.getSnapshot().getValues())
                        .mapToObj(Long::toString)
                        .collect(Collectors.joining("\n", "", "\n")),
                StandardCharsets.UTF_8);
        super.onTakedown();
    }
}
