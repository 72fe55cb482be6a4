package org.streambench.runner.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.streambench.local.Home;
import org.streambench.local.UserError;
import org.streambench.model.CapacityDocument;
import org.streambench.model.CapacityJson;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.LatencyStats;
import org.streambench.runner.capacity.CapacitySearch;
import org.streambench.runner.experiment.ConnectionOptions;
import org.streambench.runner.experiment.DatabaseSession;
import org.streambench.runner.experiment.ExperimentOptions;
import org.streambench.runner.experiment.Inputs;
import org.streambench.runner.experiment.JobOptions;
import org.streambench.runner.matrix.MatrixRunner;
import org.streambench.runner.matrix.TimeBudget;
import org.streambench.runner.results.ResultFolder;
import org.streambench.runner.results.RunResult;
import org.streambench.runner.results.Summary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "capacity",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Find the highest input rate a pipeline sustains within a latency objective: per parallelism, an"
                    + " unthrottled probe, then full runs at fixed rates (--rate), each after a steady warm-up,"
                    + " searched down from 0.9 of the probe and bisected (see docs/capacity.md).",
            "A step passes when at least 99 % of its target rate was processed, the records' end-to-end p99 is"
                    + " within --slo and the backlog did not grow. Writes DIR/capacity.json and every step's run folder."
        },
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {
            "0:a capacity was found for every parallelism",
            "1:no rate met the objective at some parallelism, or a run failed to start",
            "2:bad input (nothing written)"
        })
final class CapacityCommand implements Callable<Integer>, Bench.SpecFileMappings {

    private static final Pattern SLO = Pattern.compile("p99=(\\d+(?:\\.\\d+)?)(us|µs|ms|s)");
    private static final double TOLERANCE = 0.05;
    /** What a step costs besides its warm-up and window (job start, prefill, stop, verify), until measured. */
    private static final int STEP_OVERHEAD_SECONDS = 15;

    @Option(
            names = "--slo",
            required = true,
            paramLabel = "p99=DURATION",
            description = "The latency objective: the records' end-to-end p99, e.g. p99=50ms (us, ms or s).")
    String slo;

    @Option(
            names = "--parallelisms",
            split = ",",
            paramLabel = "LIST",
            defaultValue = "1",
            description = "The processing parallelisms to search (default: ${DEFAULT-VALUE}).")
    List<String> parallelisms;

    @Option(
            names = "--max-steps",
            defaultValue = "8",
            description = "The most steps per parallelism (default: ${DEFAULT-VALUE}).")
    String maxSteps;

    @Option(
            names = "--max-time",
            defaultValue = "30m",
            description = "The longest search per parallelism; a step that would start later is not run"
                    + " (default: ${DEFAULT-VALUE}).")
    String maxTime;

    @Option(names = "--out", paramLabel = "DIR", description = "Result folder (default: a new folder under results/).")
    Path out;

    @Option(names = "--dry-run", description = "Print the search's plan and bounds; run nothing.")
    boolean dryRun;

    @Mixin
    ExperimentOptions experiment;

    @Mixin
    ConnectionOptions connection;

    @Mixin
    JobOptions job;

    @Spec
    CommandSpec command;

    @Override
    public void useSpecFileMappings(Map<String, Map<String, String>> mappingsByOption) {
        experiment.useSpecFileMappings(mappingsByOption);
        connection.useSpecFileMappings(mappingsByOption);
    }

    @Override
    @SuppressWarnings("try") // the claim of the result folder is held, unused, while the search runs
    public Integer call() throws Exception {
        PrintWriter console = command.commandLine().getOut();
        if (command.commandLine().getParseResult().hasMatchedOption("--rate")) {
            throw new UserError("bench capacity sets the rate of every step itself; leave out --rate");
        }
        if (command.commandLine().getParseResult().hasMatchedOption("--parallelism")) {
            throw new UserError("bench capacity takes --parallelisms (a list), not --parallelism");
        }
        CapacitySearch.Objective objective = objective(slo);
        List<Integer> levels = levels(parallelisms);
        int steps = Inputs.positiveInt("--max-steps", maxSteps, "");
        int maxSeconds = Inputs.seconds("--max-time", maxTime);
        if (maxSeconds < 1) {
            throw new UserError("--max-time '" + maxTime + "' leaves no time for a step; give at least 1s");
        }
        CapacitySearch.Bounds bounds =
                new CapacitySearch.Bounds(steps, TimeUnit.SECONDS.toNanos(maxSeconds), TOLERANCE);
        if (!command.commandLine().getParseResult().hasMatchedOption("--warmup")) {
            experiment.warmup = MatrixCommand.DEFAULT_WARMUP;
        }
        ExperimentSpec base = experiment.toSpec(job);
        job.runner(console); // checks the job options
        DatabaseSession.check(base.database(), connection);
        Path dir = out != null ? out : RunCommand.defaultResultDir("capacity");
        long stepSeconds = (long) base.warmupSeconds() + base.durationSeconds() + STEP_OVERHEAD_SECONDS;
        console.printf(
                Locale.ROOT,
                "capacity of %s x %s, %s, %d B, %s at parallelism %s; objective: %s%n"
                        + "each step: warm-up %s, %d s measured; per parallelism a probe and at most %d steps or %s"
                        + " (about %s at most), stopping once the highest pass and the lowest failure are within %.0f %%%n",
                base.engine(),
                base.database(),
                base.pattern().cliName(),
                base.blobBytes(),
                base.access(),
                levels,
                objective.describe(),
                experiment.steadyWarmup()
                        ? "until steady, at most " + base.warmupSeconds() + " s"
                        : base.warmupSeconds() + " s",
                base.durationSeconds(),
                steps,
                TimeBudget.human(maxSeconds),
                TimeBudget.human(levels.size() * Math.min(maxSeconds + stepSeconds, (steps + 1) * stepSeconds)),
                TOLERANCE * 100);
        if (dryRun) {
            return 0;
        }
        RunCommand.requireUsable(dir);
        RunCommand.requireDiskSpace(base, connection);
        job.checkMonitor();
        List<CapacityDocument.Search> searches = new ArrayList<>();
        String startedAt = Instant.now().toString();
        boolean everyCapacityFound = true;
        Runnable stopMonitor = () -> {};
        try (ResultFolder claimed = ResultFolder.claimEmpty(dir, "--out")) {
            stopMonitor = job.startMonitor(console);
            try (DatabaseSession session = DatabaseSession.open(base.database(), connection, console)) {
                for (int parallelism : levels) {
                    ExperimentSpec spec =
                            base.toBuilder().parallelism(parallelism).build().withDatabaseSettings(session.settings());
                    long searchStart = System.nanoTime();
                    Path probeDir = dir.resolve("p" + parallelism).resolve("probe");
                    RunResult probe = run(spec, 0, session, probeDir, console);
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
                        everyCapacityFound = false;
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
                                return step(
                                        run(spec, rate, session, stepDir, console),
                                        rate,
                                        folder(dir, stepDir),
                                        objective);
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
                                    step.p99Micros() == null ? "-" : human(step.p99Micros()),
                                    step.passed() ? "PASS" : "FAIL",
                                    step.why()));
                    everyCapacityFound &= result.capacity() != null;
                    searches.add(new CapacityDocument.Search(
                            parallelism,
                            probed,
                            folder(dir, probeDir),
                            result.capacity(),
                            result.stopReason(),
                            seconds(searchStart),
                            result.steps().stream()
                                    .map(CapacityCommand::document)
                                    .toList()));
                    write(dir, base, objective, bounds, searches, startedAt);
                    console.printf(
                            Locale.ROOT,
                            "p=%d: %s (stopped: %s)%n",
                            parallelism,
                            result.capacity() == null
                                    ? "no rate met the objective"
                                    : String.format(
                                            Locale.ROOT,
                                            "capacity %,.0f records/s (%.0f %% of the unthrottled" + " %,.0f)",
                                            result.capacity(),
                                            100 * result.capacity() / probed,
                                            probed),
                            result.stopReason());
                }
            }
        } finally {
            stopMonitor.run();
        }
        console.println("capacity: " + dir.resolve(CapacityDocument.FILE));
        return everyCapacityFound ? 0 : 1;
    }

    /** One full run at {@code rate} (0: unthrottled) into {@code dir}, what bench run would print in its run.log. */
    private RunResult run(ExperimentSpec spec, double rate, DatabaseSession session, Path dir, PrintWriter console)
            throws Exception {
        Files.createDirectories(dir);
        RunResult result;
        try (PrintWriter log = new PrintWriter(
                Files.newBufferedWriter(dir.resolve(MatrixRunner.RUN_LOG), StandardCharsets.UTF_8), true)) {
            result = job.runner(log).run(spec.toBuilder().rate(rate).build(), experiment.steadyWarmup(), session, dir);
        }
        if (!result.passed()) {
            console.println("    " + Summary.of(result, dir));
        }
        return result;
    }

    private static CapacitySearch.Step step(
            RunResult result, double rate, String folder, CapacitySearch.Objective objective) {
        LatencyStats e2e = result.report() == null ? null : result.report().endToEnd();
        return CapacitySearch.Step.judge(
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

    private static CapacityDocument.Step document(CapacitySearch.Step s) {
        return new CapacityDocument.Step(
                s.target(),
                s.achieved(),
                s.p50Micros(),
                s.p99Micros(),
                s.maxMicros(),
                s.behind(),
                s.runError(),
                s.passed(),
                s.why(),
                s.folder());
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

    static CapacitySearch.Objective objective(String text) {
        Matcher m = SLO.matcher(text.trim());
        if (!m.matches()) {
            throw new UserError("--slo '" + text + "' must look like p99=50ms (a p99 of the end-to-end latency in us,"
                    + " ms or s)");
        }
        double value = Double.parseDouble(m.group(1));
        double micros =
                switch (m.group(2)) {
                    case "s" -> value * 1_000_000;
                    case "ms" -> value * 1_000;
                    default -> value;
                };
        if (micros < 1 || micros > 3_600_000_000.0) {
            throw new UserError("--slo '" + text + "' must be from 1 us to 1 hour");
        }
        return new CapacitySearch.Objective(Math.round(micros));
    }

    private static List<Integer> levels(List<String> given) {
        List<Integer> levels = new ArrayList<>();
        for (String text : given) {
            int level = Inputs.positiveInt("--parallelisms", text, "");
            if (level > 128) {
                throw new UserError("--parallelisms " + level + " is more than 128");
            }
            levels.add(level);
        }
        if (new LinkedHashSet<>(levels).size() < levels.size()) {
            throw new UserError("--parallelisms names a parallelism twice: " + String.join(",", given));
        }
        return levels;
    }

    private static String folder(Path dir, Path stepDir) {
        return dir.relativize(stepDir).toString();
    }

    private static double seconds(long startNanos) {
        return Math.round((System.nanoTime() - startNanos) / 1e8) / 10.0;
    }

    private static String human(long micros) {
        return micros >= 1000 ? String.format(Locale.ROOT, "%.1f ms", micros / 1000.0) : micros + " µs";
    }
}
