package org.streambench.db;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;
import org.streambench.generator.Keys;
import org.streambench.generator.SensorRecord;

/**
 * Accepts every call and stores nothing, so a run against it measures the harness's own
 * ceiling (generator, engine hand-over, operator, metrics). Reads find exactly the keys of the
 * prefilled space, so every pattern takes the same code path as against a real database.
 * <p>
 * With the setting {@code callMicros=N} every read, insert and update takes N microseconds (a
 * busy wait, as exact as the machine allows): a database of known speed, against which the
 * suite's own latency and throughput figures can be checked. With {@code callCpuMicros=N} every
 * call also spends N microseconds of its thread's own CPU time (spun until the thread's CPU clock
 * moved that far, however often the machine takes the core away): a known CPU cost per call,
 * against which the suite's CPU figures can be checked.
 */
public final class NoopDatabase implements Database {

    static final String CALL_MICROS = "callMicros";
    static final String CALL_CPU_MICROS = "callCpuMicros";
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final byte[] EMPTY = new byte[0];
    /** The last stretch of a call is spun: parking wakes up tens of microseconds late. */
    private static final long SPIN_NANOS = 100_000;

    private long callNanos;
    private long callCpuNanos;

    @Override
    public void open(DatabaseSettings settings) {
        callNanos = micros(settings, CALL_MICROS) * 1000;
        callCpuNanos = micros(settings, CALL_CPU_MICROS) * 1000;
    }

    private static long micros(DatabaseSettings settings, String name) {
        String value = settings.get(name, "0");
        try {
            long micros = value.matches("[0-9]{1,8}") ? Long.parseLong(value) : -1; // ASCII digits only
            if (micros >= 0 && micros <= 10_000_000) {
                return micros;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new DatabaseException("noop setting " + name
                + " must be a whole number of microseconds from 0 to 10000000, not '" + value + "'");
    }

    /** Spends the configured CPU time, then the configured call time: parks for most of it, then spins, so oversleeping stays small. */
    private void call() {
        if (callCpuNanos > 0) {
            long end = THREADS.getCurrentThreadCpuTime() + callCpuNanos;
            while (THREADS.getCurrentThreadCpuTime() < end) {
                Thread.onSpinWait();
            }
        }
        if (callNanos == 0) {
            return;
        }
        long end = System.nanoTime() + callNanos;
        long remaining = callNanos;
        while (remaining > SPIN_NANOS) {
            LockSupport.parkNanos(remaining - SPIN_NANOS);
            remaining = end - System.nanoTime();
        }
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    @Override
    public void resetSchema() {}

    @Override
    public void prefill(long count, LongFunction<SensorRecord> recordAt, LongFunction<byte[]> blobAt) {}

    @Override
    public Optional<StoredRecord> read(String id) {
        call();
        return Keys.isExisting(id)
                ? Optional.of(new StoredRecord(new SensorRecord(id, 0, 0, 0, 0, 0, 0), EMPTY))
                : Optional.empty();
    }

    /** It stores nothing, so no write can find a key in the wrong state. */
    @Override
    public boolean writesAreUpserts() {
        return true;
    }

    @Override
    public void insert(SensorRecord record, byte[] blob) {
        call();
    }

    @Override
    public void update(SensorRecord record, byte[] blob) {
        call();
    }

    @Override
    public long countRows() {
        return 0;
    }

    @Override
    public long countBlobsNotOfLength(int length) {
        return 0;
    }

    @Override
    public String serverVersion() {
        return "noop (stores nothing)";
    }

    @Override
    public void close() {}

    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return "noop";
        }

        @Override
        public Database create() {
            return new NoopDatabase();
        }

        @Override
        public List<String> settingNames() {
            return List.of(CALL_MICROS, CALL_CPU_MICROS);
        }

        @Override
        public void checkSettings(DatabaseSettings settings) {
            micros(settings, CALL_MICROS);
            micros(settings, CALL_CPU_MICROS);
        }

        @Override
        public boolean storesData() {
            return false;
        }
    }
}
