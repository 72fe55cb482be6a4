package org.apache.hadoop.hbase;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.client.Connection;
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
 * warmup, out. Each client writes {@code out/counts.<client>} ("operations inserts updates
 * nanoseconds: the
 * operations and time measured after the warm-up, the writes of the whole run) and {@code out/latency.<client>} (its latencies in µs, one per line).
 *
 * <p>Clients update disjoint keys (key index = client modulo clients), so no two read-modify-write
 * cycles race on one row and every update adds exactly 1 to int_1, which the runner checks.
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
        if (keys < clients && !pattern.equals("insert")) {
            throw new IllegalArgumentException(keys + " keys for " + clients + " clients: each needs keys of its own");
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
            operations++;
        }
        measuredNanos = now - start;
    }

    @Override
    boolean testRow(long row, long startTime) throws IOException {
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

    private Result read(byte[] key) throws IOException {
        return table.get(new Get(key).addFamily(FAMILY));
    }

    private void insert(byte[] key) throws IOException {
        table.put(put(key, 1, 2, 3, 1.5, 2.5, 3.5));
        inserts++;
    }

    private void update(byte[] key) throws IOException {
        Result previous = read(key);
        if (previous.isEmpty()) {
            throw new IOException("prefilled key " + Bytes.toString(key) + " is not in the table");
        }
        table.put(put(
                key,
                Bytes.toInt(previous.getValue(FAMILY, VALUE_COLUMNS[0])) + 1,
                Bytes.toInt(previous.getValue(FAMILY, VALUE_COLUMNS[1])) + 1,
                Bytes.toInt(previous.getValue(FAMILY, VALUE_COLUMNS[2])) + 1,
                Bytes.toDouble(previous.getValue(FAMILY, VALUE_COLUMNS[3])) + 1,
                Bytes.toDouble(previous.getValue(FAMILY, VALUE_COLUMNS[4])) + 1,
                Bytes.toDouble(previous.getValue(FAMILY, VALUE_COLUMNS[5])) + 1));
        updates++;
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

    /** A prefilled key of this client's own: index = client modulo clients. */
    private byte[] existingKey() {
        long own = (keys - client + clients - 1) / clients;
        return Bytes.toBytes(Keys.existing(client + clients * random.nextLong(own)));
    }

    /** n + the client's number (2 digits) + its own counter (9 digits): never a prefilled e... key. */
    private byte[] newKey() {
        newKeys++;
        return Bytes.toBytes(String.format(Locale.ROOT, "n%02d%09d", client, newKeys));
    }

    @Override
    void onTakedown() throws IOException {
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
