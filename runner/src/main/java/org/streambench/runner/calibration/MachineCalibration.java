package org.streambench.runner.calibration;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import org.streambench.model.RunDocument.Calibration;
import org.streambench.runner.monitor.DeviceUsage;

/**
 * This machine's own limits, kept beside every result so that results of two machines can be read
 * against what each could do: how many 8 KB synced writes it does one after another (a database
 * that commits every record cannot commit faster), how fast it writes sequentially, and one core's
 * speed at a fixed piece of scalar work (sorting). Measured by {@code bench calibrate}, or briefly by the first run
 * on a machine that has none, and kept in {@code work/calibration.json} (or where
 * {@code streambench.calibration} / {@code STREAMBENCH_CALIBRATION} says).
 */
public final class MachineCalibration {

    private static final int SYNCED_WRITE_BYTES = 8192;
    private static final int SEQUENTIAL_BYTES = 64 << 20;
    private static final int CHUNK_BYTES = 1 << 20;
    private static final int SORTED_LONGS = 1_000_000;
    /** How long a run measures when it finds no calibration of this machine. */
    private static final double QUICK_SECONDS = 1;

    @SuppressWarnings("unused")
    private static volatile long checksum;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private MachineCalibration() {}

    /** Where the calibration is kept. */
    public static Path file(Path work) {
        String configured = System.getProperty("streambench.calibration", System.getenv("STREAMBENCH_CALIBRATION"));
        return configured != null && !configured.isBlank()
                ? Path.of(configured).toAbsolutePath()
                : work.resolve("calibration.json");
    }

    /** The kept calibration, if it was measured on this host. */
    public static Optional<Calibration> stored(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            Calibration calibration = JSON.readValue(file.toFile(), Calibration.class);
            return calibration.host() != null && calibration.host().equals(host())
                    ? Optional.of(calibration)
                    : Optional.empty();
        } catch (IOException unreadable) {
            return Optional.empty(); // measured again, and the file replaced
        }
    }

    public static void store(Calibration calibration, Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        JSON.writeValue(tmp.toFile(), calibration);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The kept calibration of this machine, or a brief one measured in {@code work} now (and kept),
     * with a line saying so; null if it cannot be measured (a figure beside the run, never its cause to fail).
     */
    public static Calibration current(Path work, PrintWriter out) {
        Path file = file(work);
        Optional<Calibration> stored = stored(file);
        if (stored.isPresent()) {
            return stored.get();
        }
        try {
            Files.createDirectories(work);
            Calibration measured = measure(work, QUICK_SECONDS);
            store(measured, file);
            out.println("calibrated this machine (once; ./bench calibrate measures longer): " + describe(measured));
            return measured;
        } catch (IOException | RuntimeException e) {
            out.println("warning: could not calibrate this machine in " + work + ": " + e);
            return null;
        }
    }

    /** Measures in {@code folder}: synced writes for {@code seconds}, then the sequential write and the CPU. */
    public static Calibration measure(Path folder, double seconds) throws IOException {
        Path probe = folder.resolve(".calibration-" + ProcessHandle.current().pid() + ".tmp");
        try {
            long[] syncedNanos = syncedWrites(probe, seconds);
            double sequential = sequentialWriteMBps(probe);
            double sorting = sortedMillionsPerSecond(Math.max(0.3, seconds / 3));
            long[] sorted = syncedNanos.clone();
            Arrays.sort(sorted);
            double total = Arrays.stream(syncedNanos).sum() / 1e9;
            return new Calibration(
                    Instant.now().toString(),
                    host(),
                    folder.toAbsolutePath().toString(),
                    DeviceUsage.holding(folder).orElse(null),
                    seconds,
                    sorted.length / total,
                    percentile(sorted, 0.50) / 1000,
                    percentile(sorted, 0.99) / 1000,
                    sequential,
                    sorting);
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    /** One line: the figures a reader compares between machines. */
    public static String describe(Calibration c) {
        return String.format(
                Locale.ROOT,
                "%,.0f synced 8 KB writes/s (p50 %,d µs, p99 %,d µs), %,.0f MB/s sequential write, one core sorts"
                        + " %.1f M longs/s, in %s%s",
                c.syncedWritesPerSecond(),
                c.syncedWriteP50Micros(),
                c.syncedWriteP99Micros(),
                c.sequentialWriteMBps(),
                c.sortedMillionsPerSecond(),
                c.folder(),
                c.device() == null ? " (no block device: a tmpfs?)" : " (" + c.device() + ")");
    }

    /** The time of each 8 KB write to the start of the file followed by fdatasync, one after another. */
    static long[] syncedWrites(Path file, double seconds) throws IOException {
        ByteBuffer page = ByteBuffer.allocateDirect(SYNCED_WRITE_BYTES);
        new Random(1).ints(SYNCED_WRITE_BYTES, 0, 256).forEach(b -> page.put((byte) b));
        long[] times = new long[4096];
        int count = 0;
        try (FileChannel channel = FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(page.flip(), 0);
            channel.force(true); // the file's size and blocks exist: what follows overwrites in place
            long now = System.nanoTime();
            long deadline = now + (long) (seconds * 1e9);
            do {
                page.rewind();
                channel.write(page, 0);
                channel.force(false);
                long end = System.nanoTime();
                if (count == times.length) {
                    times = Arrays.copyOf(times, count * 2);
                }
                times[count++] = end - now;
                now = end;
            } while (now < deadline);
        }
        return Arrays.copyOf(times, count);
    }

    /** {@value #SEQUENTIAL_BYTES} bytes written in 1 MB pieces and synced, in 10^6 bytes per second. */
    static double sequentialWriteMBps(Path file) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK_BYTES);
        new Random(2).ints(CHUNK_BYTES, 0, 256).forEach(b -> chunk.put((byte) b));
        long start = System.nanoTime();
        try (FileChannel channel = FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            for (int written = 0; written < SEQUENTIAL_BYTES; written += CHUNK_BYTES) {
                chunk.rewind();
                while (chunk.hasRemaining()) {
                    channel.write(chunk);
                }
            }
            channel.force(true);
        }
        return SEQUENTIAL_BYTES / 1e6 / ((System.nanoTime() - start) / 1e9);
    }

    /** One thread's {@code Arrays.sort} of a million random longs, again and again for {@code seconds}. */
    static double sortedMillionsPerSecond(double seconds) {
        long[] random = new Random(3).longs(SORTED_LONGS).toArray();
        long[] work = new long[SORTED_LONGS];
        long sorts = 0;
        long start = System.nanoTime();
        long deadline = start + (long) (seconds * 1e9);
        long now = start;
        do {
            System.arraycopy(random, 0, work, 0, SORTED_LONGS);
            Arrays.sort(work);
            sorts++;
            now = System.nanoTime();
        } while (now < deadline);
        checksum = work[SORTED_LONGS / 2]; // the work is used, so the JIT cannot drop it
        return sorts * (SORTED_LONGS / 1e6) / ((now - start) / 1e9);
    }

    private static long percentile(long[] sorted, double quantile) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)];
    }

    static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException unknown) {
            return "unknown";
        }
    }
}
