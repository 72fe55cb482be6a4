package org.streambench.operators;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * What one worker of a job (a JVM that hosts generator or processing instances) pushes to the
 * runner's collector, periodically and when something changes: its
 * cumulative counts, the generator instances it hosts and which of them have ended, and, in its
 * last push ({@code window} set), the latency histograms of the measured window.
 *
 * @param worker        the worker's id (host:pid, unique within the run)
 * @param endpoint      where the worker serves {@code /metrics} and takes control requests
 * @param engineVersion set by the job's main only
 * @param failure       why the worker failed the run, or null
 * @param restartedInstances processing operator instances the engine restarted from a checkpoint in this worker
 * @param faultInjectedAtEpochMillis when this worker fired the run's injected fault, on the job's clock; 0 if it did not
 * @param emittingSinceEpochMillis when this worker's first generator emitted its first record, on the job's clock; 0 before
 * @param endedByEngineAtEpochMillis when this worker's JVM was told to end before the job was over (SIGTERM: an engine
 *                      replacing the container, as Apex's does after an operator failed), on the job's clock; 0 if not
 * @param claimsFault   this worker's operators found the run's fault due and ask the collector for it (one worker gets it)
 * @param window        the measured window's latencies; only in the worker's final push
 */
public record WorkerStatus(
        String worker,
        String endpoint,
        String engineVersion,
        Map<Integer, Long> emittedByInstance,
        Set<Integer> endedInstances,
        Map<Operation, Long> processed,
        long errors,
        long awaitingCommit,
        String firstError,
        String failure,
        long restartedInstances,
        long faultInjectedAtEpochMillis,
        long emittingSinceEpochMillis,
        long endedByEngineAtEpochMillis,
        boolean claimsFault,
        OperatorMetrics.LatencyWindow window) {

    private static final String WORKER = "worker";
    private static final String ENDPOINT = "endpoint";
    private static final String ENGINE_VERSION = "engineVersion";
    private static final String EMITTED = "emitted.";
    private static final String ENDED = "ended";
    private static final String PROCESSED = "processed.";
    private static final String ERRORS = "errors";
    private static final String AWAITING_COMMIT = "awaitingCommit";
    private static final String FIRST_ERROR = "firstError";
    private static final String FAILURE = "failure";
    private static final String RESTARTED = "restartedInstances";
    private static final String FAULT_INJECTED_AT = "faultInjectedAtEpochMillis";
    private static final String EMITTING_SINCE = "emittingSinceEpochMillis";
    private static final String ENDED_BY_ENGINE_AT = "endedByEngineAtEpochMillis";
    private static final String CLAIMS_FAULT = "claimsFault";
    private static final String HISTOGRAM = "histogram.";
    private static final String END_TO_END = "endToEnd";
    private static final String GENERATOR_DELAY = "generatorDelay";
    private static final String ACCESS = "accessHistogram.";

    public WorkerStatus {
        emittedByInstance = Map.copyOf(emittedByInstance);
        endedInstances = Set.copyOf(endedInstances);
        processed = Map.copyOf(processed);
    }

    /**
     * Adds a worker's records emitted per generator instance to {@code byInstance}, where each
     * instance counts once, at the highest count any worker reports for it: an instance the engine
     * restarted in another JVM (Flink's source task on another TaskManager) replays there from its
     * restored position and reports again what its first JVM had reported already.
     */
    public static void mergeEmitted(Map<Integer, Long> byInstance, Map<Integer, Long> emittedByInstance) {
        emittedByInstance.forEach((instance, count) -> byInstance.merge(instance, count, Math::max));
    }

    /** The earlier of two moments, where 0 is "not yet". */
    public static long earliest(long a, long b) {
        return a == 0 ? b : b == 0 ? a : Math.min(a, b);
    }

    public boolean isFinal() {
        return window != null;
    }

    /** Records processed, successfully or not. */
    public long handled() {
        return errors + processed.values().stream().mapToLong(Long::longValue).sum();
    }

    public long emitted() {
        return emittedByInstance.values().stream().mapToLong(Long::longValue).sum();
    }

    public String toText() {
        Properties p = new Properties();
        p.setProperty(WORKER, worker);
        p.setProperty(ENDPOINT, endpoint);
        if (engineVersion != null) {
            p.setProperty(ENGINE_VERSION, engineVersion);
        }
        emittedByInstance.forEach((instance, count) -> p.setProperty(EMITTED + instance, Long.toString(count)));
        p.setProperty(
                ENDED, endedInstances.stream().sorted().map(String::valueOf).collect(Collectors.joining(",")));
        processed.forEach((op, count) -> p.setProperty(PROCESSED + op.label(), Long.toString(count)));
        p.setProperty(ERRORS, Long.toString(errors));
        p.setProperty(AWAITING_COMMIT, Long.toString(awaitingCommit));
        if (firstError != null) {
            p.setProperty(FIRST_ERROR, firstError);
        }
        if (failure != null) {
            p.setProperty(FAILURE, failure);
        }
        p.setProperty(RESTARTED, Long.toString(restartedInstances));
        p.setProperty(FAULT_INJECTED_AT, Long.toString(faultInjectedAtEpochMillis));
        p.setProperty(EMITTING_SINCE, Long.toString(emittingSinceEpochMillis));
        p.setProperty(ENDED_BY_ENGINE_AT, Long.toString(endedByEngineAtEpochMillis));
        p.setProperty(CLAIMS_FAULT, Boolean.toString(claimsFault));
        if (window != null) {
            window.byResult()
                    .forEach((result, histogram) -> p.setProperty(HISTOGRAM + result.label(), encode(histogram)));
            p.setProperty(HISTOGRAM + END_TO_END, encode(window.endToEnd()));
            p.setProperty(HISTOGRAM + GENERATOR_DELAY, encode(window.generatorDelay()));
            window.access().forEach((name, histogram) -> p.setProperty(ACCESS + name, encode(histogram)));
        }
        return store(p);
    }

    public static WorkerStatus fromText(String text) {
        Properties p = load(text);
        Map<Integer, Long> emitted = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith(EMITTED)) {
                emitted.put(Integer.parseInt(key.substring(EMITTED.length())), Long.parseLong(p.getProperty(key)));
            }
        }
        Map<Operation, Long> processed = new EnumMap<>(Operation.class);
        for (Operation op : Operation.values()) {
            processed.put(op, Long.parseLong(p.getProperty(PROCESSED + op.label(), "0")));
        }
        OperatorMetrics.LatencyWindow window = null;
        if (p.getProperty(HISTOGRAM + END_TO_END) != null) {
            Map<OperatorMetrics.ReadResult, Histogram> byResult = new EnumMap<>(OperatorMetrics.ReadResult.class);
            for (OperatorMetrics.ReadResult result : OperatorMetrics.ReadResult.values()) {
                byResult.put(result, decode(p.getProperty(HISTOGRAM + result.label())));
            }
            Map<String, Histogram> access = new TreeMap<>();
            for (String key : p.stringPropertyNames()) {
                if (key.startsWith(ACCESS)) {
                    access.put(key.substring(ACCESS.length()), decode(p.getProperty(key)));
                }
            }
            window = OperatorMetrics.LatencyWindow.of(
                    byResult,
                    decode(p.getProperty(HISTOGRAM + END_TO_END)),
                    decode(p.getProperty(HISTOGRAM + GENERATOR_DELAY)),
                    access);
        }
        return new WorkerStatus(
                required(p, WORKER),
                required(p, ENDPOINT),
                p.getProperty(ENGINE_VERSION),
                emitted,
                ints(p.getProperty(ENDED, "")),
                processed,
                Long.parseLong(p.getProperty(ERRORS, "0")),
                Long.parseLong(p.getProperty(AWAITING_COMMIT, "0")),
                p.getProperty(FIRST_ERROR),
                p.getProperty(FAILURE),
                Long.parseLong(p.getProperty(RESTARTED, "0")),
                Long.parseLong(p.getProperty(FAULT_INJECTED_AT, "0")),
                Long.parseLong(p.getProperty(EMITTING_SINCE, "0")),
                Long.parseLong(p.getProperty(ENDED_BY_ENGINE_AT, "0")),
                Boolean.parseBoolean(p.getProperty(CLAIMS_FAULT)),
                window);
    }

    /**
     * What the collector answers a push with: the run's control state (so a worker that joins
     * late catches up) and the rest of the job as the other workers last reported it;
     * {@code emittingSinceEpochMillis}: when the run's first record was emitted, by any worker (0
     * before); {@code faultOwner}: the one worker granted the run's injected fault, or null.
     */
    public record View(
            boolean started,
            boolean stopRequested,
            Map<Integer, Long> othersEmittedByInstance,
            Set<Integer> othersEndedInstances,
            long othersHandled,
            long othersAwaitingCommit,
            boolean allFinal,
            int workers,
            long emittingSinceEpochMillis,
            String faultOwner) {

        /** A worker without a collector: it is the whole job. */
        public static final View ALONE = new View(false, false, Map.of(), Set.of(), 0, 0, true, 1, 0, null);

        private static final String STARTED = "started";
        private static final String STOP = "stop";
        private static final String OTHERS_EMITTED = "others.emitted.";
        private static final String OTHERS_ENDED = "others.ended";
        private static final String OTHERS_HANDLED = "others.handled";
        private static final String OTHERS_AWAITING_COMMIT = "others.awaitingCommit";
        private static final String ALL_FINAL = "allFinal";
        private static final String WORKERS = "workers";
        private static final String RUN_EMITTING_SINCE = "emittingSinceEpochMillis";
        private static final String FAULT_OWNER = "faultOwner";

        public View {
            othersEmittedByInstance = Map.copyOf(othersEmittedByInstance);
            othersEndedInstances = Set.copyOf(othersEndedInstances);
        }

        public String toText() {
            Properties p = new Properties();
            p.setProperty(STARTED, Boolean.toString(started));
            p.setProperty(STOP, Boolean.toString(stopRequested));
            othersEmittedByInstance.forEach(
                    (instance, count) -> p.setProperty(OTHERS_EMITTED + instance, Long.toString(count)));
            p.setProperty(
                    OTHERS_ENDED,
                    othersEndedInstances.stream().sorted().map(String::valueOf).collect(Collectors.joining(",")));
            p.setProperty(OTHERS_HANDLED, Long.toString(othersHandled));
            p.setProperty(OTHERS_AWAITING_COMMIT, Long.toString(othersAwaitingCommit));
            p.setProperty(ALL_FINAL, Boolean.toString(allFinal));
            p.setProperty(WORKERS, Integer.toString(workers));
            p.setProperty(RUN_EMITTING_SINCE, Long.toString(emittingSinceEpochMillis));
            if (faultOwner != null) {
                p.setProperty(FAULT_OWNER, faultOwner);
            }
            return store(p);
        }

        public static View fromText(String text) {
            Properties p = load(text);
            Map<Integer, Long> emitted = new TreeMap<>();
            for (String key : p.stringPropertyNames()) {
                if (key.startsWith(OTHERS_EMITTED)) {
                    emitted.put(
                            Integer.parseInt(key.substring(OTHERS_EMITTED.length())),
                            Long.parseLong(p.getProperty(key)));
                }
            }
            return new View(
                    Boolean.parseBoolean(p.getProperty(STARTED)),
                    Boolean.parseBoolean(p.getProperty(STOP)),
                    emitted,
                    ints(p.getProperty(OTHERS_ENDED, "")),
                    Long.parseLong(p.getProperty(OTHERS_HANDLED, "0")),
                    Long.parseLong(p.getProperty(OTHERS_AWAITING_COMMIT, "0")),
                    Boolean.parseBoolean(p.getProperty(ALL_FINAL)),
                    Integer.parseInt(p.getProperty(WORKERS, "1")),
                    Long.parseLong(p.getProperty(RUN_EMITTING_SINCE, "0")),
                    p.getProperty(FAULT_OWNER));
        }
    }

    private static String required(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException("a worker status without " + key);
        }
        return value;
    }

    private static Set<Integer> ints(String list) {
        return list.isEmpty()
                ? Set.of()
                : Arrays.stream(list.split(",")).map(Integer::valueOf).collect(Collectors.toCollection(TreeSet::new));
    }

    static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    static Histogram decode(String encoded) {
        if (encoded == null) {
            throw new IllegalArgumentException("a final worker status without one of its histograms");
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("an unreadable histogram in a worker status: " + e.getMessage(), e);
        }
    }

    private static String store(Properties p) {
        StringWriter out = new StringWriter();
        try {
            p.store(out, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static Properties load(String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringReader does not fail
        }
        return p;
    }
}
