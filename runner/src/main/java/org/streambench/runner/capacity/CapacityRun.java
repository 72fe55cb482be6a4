package org.streambench.runner.capacity;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.streambench.local.Home;
import org.streambench.local.UserError;
import org.streambench.model.CapacityDocument;
import org.streambench.model.CapacityJson;
import org.streambench.model.RunDocument;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.engine.EngineProvider;
import org.streambench.runner.experiment.DatabaseSession;
import org.streambench.runner.experiment.Engines;
import org.streambench.runner.experiment.ExperimentRunner;
import org.streambench.runner.matrix.MatrixRunner;
import org.streambench.runner.results.RunResult;
import org.streambench.runner.results.Summary;

/**
 * The capacity searches of one pipeline, one per parallelism: an unthrottled probe, then {@link
 * CapacitySearch}'s steps, each a full run at a fixed rate in a folder of its own, and {@code
 * capacity.json} rewritten after each search. {@code bench capacity} runs it for its pipeline,
 * {@code bench matrix --capacity} for each cell.
 */
public final class CapacityRun {

    /** One full run of {@code spec} at {@code rate} records/s (0: unthrottled) into the empty folder {@code dir}. */
    public interface Runs {
        RunResult run(ExperimentSpec spec, double rate, Path dir) throws Exception;
    }

    private CapacityRun() {}

    /**
     * The objective against the floor the engine's settings put under the latency, before a search
     * starts: bad input when the floor holds at every rate (no step could pass), a warning (returned)
     * when it holds at the low rates a slow pipeline runs at.
     */
    public static Optional<String> checkObjective(ExperimentSpec spec, CapacitySearch.Objective objective) {
        Optional<EngineProvider.LatencyFloor> found =
                Engines.parse(spec.engine()).latencyFloor(spec.engineSettings());
        if (found.isEmpty() || found.get().millis() * 1000 <= objective.p99Micros()) {
            return Optional.empty();
        }
        EngineProvider.LatencyFloor floor = found.get();
        String what = spec.engine() + "'s " + floor.setting() + " of " + floor.millis() + " ms is a floor under "
                + (floor.atEveryRate() ? "every record's latency" : "the latency at rates that fill no buffer sooner")
                + " (" + floor.cause() + "), above the objective " + objective.brief();
        long objectiveMillis = objective.p99Micros() / 1000;
        String fix = "--engine-setting " + floor.setting() + "=N"
                + (objectiveMillis > floor.lowest() ? " below " + objectiveMillis : "") + " (as low as "
                + floor.lowest() + ")";
        if (floor.atEveryRate()) {
            throw new UserError(what + ": no rate can meet it; give " + fix + ", or a larger --slo");
        }
        return Optional.of("bench: warning: " + what + "; a search at low rates fails it unless you give " + fix);
    }

    /**
     * Steps as {@code bench run} makes them: each in its folder with its own run.log, against the
     * open {@code session}; a step whose run failed prints its summary line to {@code console}.
     */
    public static Runs inFolders(
            Function<PrintWriter, ExperimentRunner> runner,
            boolean steadyWarmup,
            DatabaseSession session,
            PrintWriter console) {
        return (spec, rate, dir) -> {
            Files.createDirectories(dir);
            RunResult result;
            try (PrintWriter log = new PrintWriter(
                    Files.newBufferedWriter(dir.resolve(MatrixRunner.RUN_LOG), StandardCharsets.UTF_8), true)) {
                result = runner.apply(log).run(spec.toBuilder().rate(rate).build(), steadyWarmup, session, dir);
            }
            if (!result.passed()) {
                console.println("    " + Summary.of(result, dir));
            }
            return result;
        };
    }

    /**
     * Searches the capacity of {@code base} (its settings those of the open database) at each of
     * {@code levels}, into {@code dir}: {@code p<N>/probe}, {@code p<N>/step-<n>-<rate>}, and
     * {@code capacity.json}. Prints a line per step and per search to {@code console}.
     */
    public static List<CapacityDocument.Search> search(
            ExperimentSpec base,
            List<Integer> levels,
            CapacitySearch.Objective objective,
            CapacitySearch.Bounds bounds,
            Path dir,
            Runs runs,
            PrintWriter console)
            throws Exception {
        List<CapacityDocument.Search> searches = new ArrayList<>();
        String startedAt = Instant.now().toString();
        for (int parallelism : levels) {
            ExperimentSpec spec = base.toBuilder().parallelism(parallelism).build();
            long searchStart = System.nanoTime();
            Path probeDir = dir.resolve("p" + parallelism).resolve("probe");
            RunResult probe = runs.run(spec, 0, probeDir);
            if (!probe.passed() || probe.throughput() == null) {
                console.println("p=" + parallelism + ": the unthrottled probe failed: " + probe.error());
                searches.add(new CapacityDocument.Search(
                        parallelism,
                        0,
                        folder(dir, probeDir),
                        null,
                        "the unthrottled probe failed: " + probe.error(),
                        seconds(searchStart),
                        List.of()));
                write(dir, base, objective, bounds, searches, startedAt);
                continue;
            }
            double probed = probe.throughput().mean();
            console.printf(Locale.ROOT, "p=%d: unthrottled %,.0f records/s%n", parallelism, probed);
            int[] number = {0};
            CapacitySearch.Result result = CapacitySearch.search(
                    probed,
                    rate -> {
                        Path stepDir = dir.resolve("p" + parallelism)
                                .resolve(String.format(Locale.ROOT, "step-%d-%.0f", ++number[0], rate));
                        return step(runs.run(spec, rate, stepDir), rate, folder(dir, stepDir), objective);
                    },
                    bounds,
                    System::nanoTime,
                    (n, step) -> console.printf(
                            Locale.ROOT,
                            "  p=%d step %d: %,.0f records/s -> processed %,.0f/s, p99 %s: %s (%s)%n",
                            parallelism,
                            n,
                            step.target(),
                            step.achieved(),
                            step.p99Micros() == null ? "-" : CapacitySearch.human(step.p99Micros()),
                            step.passed() ? "PASS" : "FAIL",
                            step.why()));
            searches.add(new CapacityDocument.Search(
                    parallelism,
                    probed,
                    folder(dir, probeDir),
                    result.capacity(),
                    result.stopReason(),
                    seconds(searchStart),
                    result.steps()));
            write(dir, base, objective, bounds, searches, startedAt);
            console.printf(
                    Locale.ROOT,
                    "p=%d: %s (stopped: %s)%n",
                    parallelism,
                    result.capacity() == null
                            ? "no rate met the objective"
                            : String.format(
                                    Locale.ROOT,
                                    "capacity %,.0f records/s (%.0f %% of the unthrottled %,.0f)",
                                    result.capacity(),
                                    100 * result.capacity() / probed,
                                    probed),
                    result.stopReason());
        }
        return searches;
    }

    /** Whether every search found a capacity. */
    public static boolean everyCapacityFound(List<CapacityDocument.Search> searches) {
        return searches.stream().allMatch(s -> s.capacity() != null);
    }

    private static CapacityDocument.Step step(
            RunResult result, double rate, String folder, CapacitySearch.Objective objective) {
        RunDocument.Latency e2e =
                result.report() == null ? null : result.report().endToEnd();
        return CapacitySearch.judge(
                rate,
                result.rate() == null ? 0 : result.rate().processed(),
                e2e == null || e2e.count() == 0 ? null : e2e.p50(),
                e2e == null || e2e.count() == 0 ? null : e2e.p99(),
                e2e == null || e2e.count() == 0 ? null : e2e.max(),
                result.rate() != null && result.rate().behind(),
                result.passed() ? null : result.error(),
                folder,
                objective);
    }

    private static void write(
            Path dir,
            ExperimentSpec base,
            CapacitySearch.Objective objective,
            CapacitySearch.Bounds bounds,
            List<CapacityDocument.Search> searches,
            String startedAt)
            throws IOException {
        CapacityDocument document = new CapacityDocument(
                CapacityDocument.SCHEMA_VERSION,
                base.engine(),
                base.database(),
                base.pattern().cliName(),
                base.blobBytes(),
                base.access().toString(),
                base.engineSettings(),
                new CapacityDocument.Objective(objective.p99Micros(), 0.99, objective.describe()),
                new CapacityDocument.Bounds(
                        bounds.maxSteps(), TimeUnit.NANOSECONDS.toSeconds(bounds.maxNanos()), bounds.tolerance()),
                List.copyOf(searches),
                startedAt,
                Home.commit());
        Path tmp = dir.resolve(CapacityDocument.FILE + ".tmp");
        Files.writeString(tmp, CapacityJson.write(document));
        Files.move(
                tmp,
                dir.resolve(CapacityDocument.FILE),
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }

    private static String folder(Path dir, Path stepDir) {
        return dir.relativize(stepDir).toString();
    }

    private static double seconds(long startNanos) {
        return Math.round((System.nanoTime() - startNanos) / 1e8) / 10.0;
    }
}
