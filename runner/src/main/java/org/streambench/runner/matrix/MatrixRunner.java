package org.streambench.runner.matrix;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.streambench.local.CleanupOnExit;
import org.streambench.local.Folders;
import org.streambench.runner.results.RunResult;
import org.streambench.runner.results.Summary;

/**
 * Runs a matrix's cells still to run, database group by database group, and keeps the journal:
 * each cell from a clean folder, "running" until its result is in, then ok or failed with its
 * timings. A database group's server is opened once for the group, and again after a failed cell
 * (a failure may have left it in any state). An interrupted runner leaves its cell "running", so a
 * resumed matrix runs it again. How a cell runs and a database opens is {@link Cells}' business,
 * so this class holds only the orchestration, which a test can drive without servers.
 *
 * @param <S> an open database (the session a group's cells share)
 */
public final class MatrixRunner<S extends AutoCloseable> {

    /** How cells run: opening a group's database, and one cell's experiment against it. */
    public interface Cells<S extends AutoCloseable> {
        S openDatabase(String database, PrintWriter console) throws Exception;

        /** Runs {@code cell} into its empty folder {@code dir}, printing what {@code bench run} would to {@code log}. */
        Outcome run(Cell cell, S database, Path dir, PrintWriter log) throws Exception;
    }

    /**
     * What a cell came to: whether it passed and why not, its records/s (a run's mean throughput, a
     * capacity search's capacity), its mean read latency, the seconds it measured (warm-up and
     * window; null when that is not one figure), its phases, and its line for the console.
     */
    public record Outcome(
            boolean passed,
            String error,
            Double throughput,
            Double readLatencyMicros,
            Double measuredSeconds,
            Map<String, Double> phaseSeconds,
            String summary) {

        /** A cell that is one run: {@code result}, in {@code dir}. */
        public static Outcome of(RunResult result, Path dir) {
            return new Outcome(
                    result.passed(),
                    result.passed() ? null : result.error(),
                    result.throughput() == null ? null : result.throughput().mean(),
                    result.readLatencyMicros() == null
                                    || result.readLatencyMicros().count() == 0
                            ? null
                            : result.readLatencyMicros().mean(),
                    (double) ((result.warmup() == null ? 0 : result.warmup().seconds())
                            + result.spec().durationSeconds()),
                    result.phaseSeconds(),
                    Summary.of(result, dir));
        }
    }

    /** Who hears how far the matrix has come (its metrics, its progress bar). */
    public interface Listener {
        default void started(Cell cell) {}

        default void finished(
                Cell cell, Double throughput, Double readLatencyMicros, long ok, long failed, long left, long eta) {}

        default void progress(long ok, long failed, long left) {}
    }

    public static final String RUN_LOG = "run.log";

    private final Journal journal;
    private final Cells<S> cells;
    private final Listener listener;
    private final boolean retryFailed;

    public MatrixRunner(Journal journal, Cells<S> cells, Listener listener, boolean retryFailed) {
        this.journal = journal;
        this.cells = cells;
        this.listener = listener;
        this.retryFailed = retryFailed;
    }

    /** The cells still to run: pending, those that were running when the matrix died, and with retryFailed the failed ones. */
    public static List<Journal.Entry> todo(Journal journal, boolean retryFailed) {
        return journal.entries().stream()
                .filter(e -> e.state() == Journal.State.PENDING
                        || e.state() == Journal.State.RUNNING
                        || (retryFailed && e.state() == Journal.State.FAILED))
                .toList();
    }

    /** Runs every cell still to run, printing a line per finished cell to {@code console}. */
    public void run(PrintWriter console) throws Exception {
        Map<String, List<Journal.Entry>> byDatabase = new LinkedHashMap<>();
        todo(journal, retryFailed).forEach(e -> byDatabase
                .computeIfAbsent(e.cell().database(), d -> new ArrayList<>())
                .add(e));
        listener.progress(journal.count(Journal.State.OK), journal.count(Journal.State.FAILED), remaining(journal));
        Instant start = Instant.now();
        int ranHere = 0;
        for (Map.Entry<String, List<Journal.Entry>> group : byDatabase.entrySet()) {
            S database = null;
            try {
                for (Journal.Entry entry : group.getValue()) {
                    long cellStart = System.nanoTime();
                    Double serverStart = null;
                    if (database == null) {
                        database = cells.openDatabase(group.getKey(), console);
                        serverStart = (System.nanoTime() - cellStart) / 1e9;
                    }
                    listener.started(entry.cell());
                    Outcome result = runCell(entry, database, cellStart, serverStart);
                    if (CleanupOnExit.exiting()) {
                        console.printf(
                                "%s: interrupted; it runs again from a clean folder on ./bench matrix --resume %s%n",
                                entry.cell().id(), journal.dir());
                        return;
                    }
                    ranHere++;
                    reportFinished(console, entry, result, start, ranHere);
                    if (entry.state() == Journal.State.FAILED) {
                        database.close();
                        database = null;
                    }
                }
            } finally {
                if (database != null) {
                    database.close();
                }
            }
        }
    }

    private void reportFinished(PrintWriter console, Journal.Entry entry, Outcome result, Instant start, int ranHere) {
        int total = journal.entries().size();
        long ok = journal.count(Journal.State.OK);
        long failed = journal.count(Journal.State.FAILED);
        long left = total - ok - failed;
        double perCell = Duration.between(start, Instant.now()).toSeconds() / (double) ranHere;
        long eta = Math.round(perCell * remaining(journal));
        listener.finished(
                entry.cell(),
                entry.throughput(),
                result == null ? null : result.readLatencyMicros(),
                ok,
                failed,
                left,
                eta);
        console.printf(
                Locale.ROOT,
                "[%d/%d] %s | ok %d, failed %d, left %d, ETA %s%n",
                ok + failed,
                total,
                result == null ? entry.cell().id() + ": FAILED: " + entry.reason() : result.summary(),
                ok,
                failed,
                left,
                TimeBudget.human(eta));
    }

    /** Runs one cell from a clean folder; records its state and timings; null if it failed before producing a result. */
    private Outcome runCell(Journal.Entry entry, S database, long startNanos, Double serverStartSeconds)
            throws Exception {
        Path dir = journal.dir().resolve(entry.cell().id());
        Folders.deleteTree(dir);
        Files.createDirectories(dir);
        entry.started(serverStartSeconds);
        journal.save();
        Outcome result = null;
        try (PrintWriter log =
                new PrintWriter(Files.newBufferedWriter(dir.resolve(RUN_LOG), StandardCharsets.UTF_8), true)) {
            result = cells.run(entry.cell(), database, dir, log);
            entry.ran(
                    result.passed(),
                    result.error(),
                    result.throughput(),
                    result.measuredSeconds(),
                    result.phaseSeconds());
        } catch (RuntimeException e) {
            entry.failed(e.getMessage());
        }
        if (CleanupOnExit.exiting()) {
            // interrupted: the cell stays "running", as the journal says, and is run again on resume
            entry.interrupted();
            return result;
        }
        entry.ended((System.nanoTime() - startNanos) / 1e9);
        journal.save();
        return result;
    }

    /** Prints the overheads, the median seconds per phase and the final count; returns the exit code (0: all ok). */
    public int summarize(PrintWriter console) {
        List<Double> overheads = sortedOverheads(journal);
        if (!overheads.isEmpty()) {
            console.printf(
                    Locale.ROOT,
                    "overhead per experiment (everything but warm-up and measured window): median %.1f s, max %.1f s%n",
                    median(overheads),
                    overheads.get(overheads.size() - 1));
        }
        Map<String, List<Double>> byPhase = new LinkedHashMap<>();
        journal.entries().forEach(e -> e.phaseSeconds()
                .forEach((phase, seconds) ->
                        byPhase.computeIfAbsent(phase, p -> new ArrayList<>()).add(seconds)));
        if (!byPhase.isEmpty()) {
            List<String> medians = new ArrayList<>();
            byPhase.forEach((phase, values) -> medians.add(String.format(
                    Locale.ROOT,
                    "%s %.1f",
                    phase,
                    median(values.stream().sorted().toList()))));
            console.println("median seconds per phase: " + String.join(", ", medians));
        }
        long failed = journal.count(Journal.State.FAILED);
        console.printf(
                Locale.ROOT,
                "matrix %s: %d ok, %d failed of %d%s%n",
                journal.dir(),
                journal.count(Journal.State.OK),
                failed,
                journal.entries().size(),
                failed > 0 ? "; run them again with ./bench matrix --resume " + journal.dir() + " --retry-failed" : "");
        return failed == 0 && remaining(journal) == 0 ? 0 : 1;
    }

    /** The overheads of the journal's finished experiments, smallest first. */
    public static List<Double> sortedOverheads(Journal journal) {
        return journal.entries().stream()
                .map(e -> e.overheadSeconds())
                .filter(o -> o != null)
                .sorted()
                .toList();
    }

    public static double median(List<Double> sorted) {
        return sorted.get(sorted.size() / 2);
    }

    private static long remaining(Journal journal) {
        return journal.count(Journal.State.PENDING) + journal.count(Journal.State.RUNNING);
    }
}
