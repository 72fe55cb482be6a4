package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.runner.EndToEndTest.list;
import static org.streambench.runner.EndToEndTest.map;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.streambench.runner.results.ResultFiles;

/**
 * The suite's own figures against a truth known in advance: the noop connector with
 * {@code callMicros} is a database whose every call takes exactly that long, and {@code --rate}
 * is a schedule the generators must keep.
 */
@Tag("integration")
@RunsAlone("a latency and a throughput against a database of known speed")
class AccuracyTest {

    private static final int CALL_MICROS = 2000;

    private static final double MEAN_BOUND = 1.25;

    /**
     * What each engine loses per record besides the call. Spark loses time between micro-batches,
     * and its backpressure's rate estimator keeps the batches short of a full second: it measured
     * 79-84 % of the ideal in six runs here ({@code bench run --engine spark --db noop --pattern read
     * --db-setting callMicros=2000}; 393 and 409/s over 4 s, 412 and 422/s over 8 s after a 4 s
     * warm-up, the last two in the window it gets here); its bound leaves room for a loaded machine and
     * still catches a throughput off by a factor of two.
     */
    private static final Map<String, Double> LEAST_SHARE_OF_IDEAL_THROUGHPUT =
            Map.of("flink", 0.9, "spark", 0.6, "apex", 0.9);

    /** Spark's per-second samples alternate with its batches (e.g. 311, 476, 327, 480): it gets a longer window. */
    private static final Map<String, List<String>> WINDOW = Map.of(
            "flink", List.of("--warmup", "2s", "--duration", "4s"),
            "spark", List.of("--warmup", "4s", "--duration", "8s"),
            "apex", List.of("--warmup", "2s", "--duration", "4s"));

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.streambench.runner.Registries#engines")
    void readLatencyAndThroughputMatchADatabaseOfKnownSpeed(String engine, @TempDir Path tmp) throws Exception {
        List<String> options = new ArrayList<>(
                List.of("--engine", engine, "--pattern", "read", "--db-setting", "callMicros=" + CALL_MICROS));
        options.addAll(Registries.expectedOf(WINDOW, engine, "WINDOW"));
        Map<String, Object> result = run(tmp, options.toArray(String[]::new));

        Map<String, Object> latency = map(result, "readLatencyMicros");
        long p50 = number(latency, "p50").longValue();
        double mean = number(latency, "mean").doubleValue();
        assertTrue(
                p50 >= CALL_MICROS && p50 <= CALL_MICROS * 1.05,
                "read p50 " + p50 + " us for calls of " + CALL_MICROS + " us");
        // the mean carries the loaded machine's late wake-ups, which the median does not: a CI run on a slow
        // day measured 2,209 and 2,272 us (the median within its 5 %); a clock that counts anything but the
        // call (a queue, a batch, a second call) still lands far above this bound
        assertTrue(
                mean >= CALL_MICROS && mean <= CALL_MICROS * MEAN_BOUND,
                "read mean " + mean + " us for calls of " + CALL_MICROS + " us");

        double ideal = 1e6 / CALL_MICROS; // one instance, one read per record
        double throughput = number(map(result, "throughput"), "mean").doubleValue();
        assertTrue(
                throughput <= ideal * 1.01,
                "throughput " + throughput + "/s is more than a database of " + CALL_MICROS + " us per call can serve ("
                        + ideal + "/s)");
        assertTrue(
                throughput
                        >= ideal
                                * Registries.expectedOf(
                                        LEAST_SHARE_OF_IDEAL_THROUGHPUT, engine, "LEAST_SHARE_OF_IDEAL_THROUGHPUT"),
                "throughput " + throughput + "/s, ideal " + ideal + "/s");
    }

    /**
     * Unthrottled against a database of 100 records/s (an update is a read and a write of 5 ms), what
     * a job holds unprocessed is what its stop must drain: a few seconds of it, not the minutes Spark's
     * first batches queued at their initial 1,000 records/s before its rate estimator had learned (and
     * its default floor of 100 records/s kept queueing against slower databases), nor the 3,700
     * records (39 s) Flink's network buffers held.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.streambench.runner.Registries#engines")
    void unthrottledAgainstASlowDatabaseTheStopDrainsWithinItsTimeout(String engine, @TempDir Path tmp)
            throws Exception {
        Map<String, Object> result = run(
                tmp,
                "--engine",
                engine,
                "--pattern",
                "update",
                "--db-setting",
                "callMicros=5000",
                "--warmup",
                "1s",
                "--duration",
                "3s",
                "--stop-timeout",
                "20s");
        Map<String, Object> counts = map(result, "counts");
        long processed = map(counts, "processed").values().stream()
                .mapToLong(v -> ((Number) v).longValue())
                .sum();
        assertEquals(number(counts, "emitted").longValue(), processed, counts.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("org.streambench.runner.Registries#engines")
    void aTargetRateIsKeptAndThePerSecondRowsAddUp(String engine, @TempDir Path tmp) throws Exception {
        double target = 2000;
        Map<String, Object> result = run(tmp, "--engine", engine, "--pattern", "update", "--rate", "2000");

        Map<String, Object> rate = map(result, "rate");
        assertEquals(target, number(rate, "target").doubleValue());
        double generated = number(rate, "generated").doubleValue();
        assertTrue(
                Math.abs(generated - target) <= target * 0.05,
                "generated " + generated + "/s for a target of " + target + "/s");
        // Spark completes a micro-batch (1 s) at a time: over a 4 s window its processed rate is off by up to a quarter
        double processedRate = number(rate, "processed").doubleValue();
        double tolerance = engine.equals("spark") ? 0.3 : 0.05;
        assertTrue(
                Math.abs(processedRate - target) <= target * tolerance,
                "processed " + processedRate + "/s for a target of " + target + "/s");
        assertEquals(false, rate.get("behind"), rate.toString());

        List<Map<String, Object>> perSecond = list(result, "perSecond");
        long previousEpoch = 0;
        long recordsInRows = 0;
        long generatedInRows = 0;
        for (Map<String, Object> row : perSecond) {
            long epoch = number(row, "epochMillis").longValue();
            double interval = number(row, "intervalSeconds").doubleValue();
            assertTrue(epoch > 1_700_000_000_000L && epoch > previousEpoch, "epoch times rise: " + row);
            assertTrue(interval > 0.8 && interval < 1.5, "about a second per row: " + row);
            if (previousEpoch > 0) {
                assertTrue(
                        Math.abs(epoch - previousEpoch - interval * 1000) <= 2,
                        "each row covers the time since the previous one, none is missing: " + row);
            }
            previousEpoch = epoch;
            recordsInRows += number(row, "records").longValue();
            generatedInRows += number(row, "generated").longValue();
        }
        Map<String, Object> counts = map(result, "counts");
        long processed = map(counts, "processed").values().stream()
                .mapToLong(v -> ((Number) v).longValue())
                .sum();
        long emitted = number(counts, "emitted").longValue();
        // the rows miss only what came before the first sample (within the job's start, e.g. Spark's first
        // micro-batch) and after the last (the stop, with its drain): at the target rate, no more than those
        // phases' seconds allow, however long a loaded machine makes them
        Map<String, Object> phases = map(result, "phaseSeconds");
        double unsampledSeconds = number(phases, "jobStart").doubleValue()
                + number(phases, "stop").doubleValue();
        double unsampledAtMost = target * unsampledSeconds * 1.05 + 1;
        assertTrue(
                recordsInRows <= processed && processed - recordsInRows <= unsampledAtMost,
                "rows " + recordsInRows + ", processed " + processed + ", unsampled phases " + phases);
        assertTrue(
                generatedInRows <= emitted && emitted - generatedInRows <= unsampledAtMost,
                "rows " + generatedInRows + ", emitted " + emitted + ", unsampled phases " + phases);
    }

    @Test
    void aRunThatCannotKeepItsRateIsMarkedAndItsLatencyIncludesTheWait(@TempDir Path tmp) throws Exception {
        // 1,000 records/s asked of one operator instance that can do 500/s; Apex lets at most 20 records be
        // in flight, so the generator is held back at once (other engines first fill their buffers)
        CliResult run = CliResult.bench(args(
                tmp,
                "--engine",
                "apex",
                "--engine-setting",
                "maxInFlight=20",
                "--pattern",
                "insert",
                "--rate",
                "1000",
                "--db-setting",
                "callMicros=" + CALL_MICROS));
        assertEquals(0, run.code(), run.toString());
        assertTrue(run.out().contains("BEHIND TARGET RATE of 1,000/s"), run.out());
        Map<String, Object> result = ResultFiles.read(tmp.resolve("run"));
        assertEquals("ok", result.get("status"), "falling behind is reported, not a failure");
        Map<String, Object> rate = map(result, "rate");
        assertEquals(true, rate.get("behind"), rate.toString());
        assertTrue(
                number(rate, "generated").doubleValue() < 510
                        && number(rate, "processed").doubleValue() < 510,
                rate.toString());
        // by the measured window the schedule is seconds behind; a latency taken from the actual emit time would
        // see only the 20 records in flight (about 40 ms)
        long delayP50 = number(map(result, "generatorDelayMicros"), "p50").longValue();
        long endToEndP50 = number(map(result, "endToEndLatencyMicros"), "p50").longValue();
        assertTrue(delayP50 > 1_000_000, "generator delay p50 " + delayP50 + " us");
        assertTrue(
                endToEndP50 > delayP50,
                "end-to-end p50 " + endToEndP50 + " us includes the generator's delay of " + delayP50 + " us");
    }

    /**
     * The engine's CPU-seconds per record against a known CPU cost per call ({@code callCpuMicros},
     * spun on the calling thread's own CPU clock, one call per record). With it, the figure is at
     * least that cost: whatever else it counts, it cannot miss the calls. Against a run without it at
     * the same rate, it grows by about that cost: by 60-140 % of it, so a figure doubled (anything
     * counted twice) fails here, and a figure halved (a record count or a window that does not match
     * the CPU divided by it) fails the first check. What the engine spends besides the call wanders
     * by 100-200 µs per record from run to run here: added 631-993 µs by 800 in seven pairs, each
     * with two or three busy loops beside it on the two cores, and the pipeline kept its 500 records/s.
     * At 1,000 it kept its schedule on a quiet machine (749-871 µs added in six pairs), but with two
     * busy loops it fell behind, and its figure per record doubled (1,450-1,530 µs added in three).
     */
    @Test
    void theEnginesCpuPerRecordGrowsByTheKnownCpuCostOfACall(@TempDir Path tmp) throws Exception {
        int cost = 800;
        double[] perRecord = new double[2];
        for (int i = 0; i < 2; i++) {
            Map<String, Object> result = run(
                    tmp.resolve("cost-" + i),
                    "--engine",
                    "flink",
                    "--pattern",
                    "insert",
                    "--rate",
                    "500",
                    "--warmup",
                    "2s",
                    "--duration",
                    "6s",
                    "--db-setting",
                    "callCpuMicros=" + (i == 0 ? 0 : cost));
            Map<String, Object> engine = map(map(map(result, "resources"), "roles"), "engine");
            perRecord[i] = number(engine, "cpuSecondsPerMillionRecords").doubleValue(); // = µs per record
        }
        double added = perRecord[1] - perRecord[0];
        System.out.printf(
                "engine CPU per record: %.1f µs without, %.1f µs with %d µs per call%n",
                perRecord[0], perRecord[1], cost);
        String measured = "engine CPU per record " + perRecord[0] + " µs without, " + perRecord[1] + " µs with " + cost
                + " µs of CPU per call";
        assertTrue(perRecord[1] >= cost * 0.97, measured);
        assertTrue(added >= cost * 0.6 && added <= cost * 1.4, measured);
    }

    private static Map<String, Object> run(Path tmp, String... options) throws Exception {
        CliResult run = CliResult.bench(args(tmp, options));
        assertEquals(0, run.code(), run.toString());
        return ResultFiles.read(tmp.resolve("run"));
    }

    private static String[] args(Path tmp, String... options) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--db",
                "noop",
                "--keys",
                "1000",
                "--metrics-port",
                "0",
                "--out",
                tmp.resolve("run").toString()));
        args.addAll(List.of(options));
        for (String[] fallback : new String[][] {{"--warmup", "2s"}, {"--duration", "4s"}}) {
            if (!args.contains(fallback[0])) {
                args.addAll(List.of(fallback));
            }
        }
        return args.toArray(String[]::new);
    }

    private static Number number(Map<String, Object> json, String key) {
        return (Number) json.get(key);
    }
}
