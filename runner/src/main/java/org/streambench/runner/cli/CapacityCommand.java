package org.streambench.runner.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.streambench.local.UserError;
import org.streambench.model.CapacityDocument;
import org.streambench.operators.ExperimentSpec;
import org.streambench.runner.capacity.CapacityInputs;
import org.streambench.runner.capacity.CapacityRun;
import org.streambench.runner.capacity.CapacitySearch;
import org.streambench.runner.experiment.ConnectionOptions;
import org.streambench.runner.experiment.DatabaseSession;
import org.streambench.runner.experiment.DiskSpace;
import org.streambench.runner.experiment.ExperimentOptions;
import org.streambench.runner.experiment.Inputs;
import org.streambench.runner.experiment.JobOptions;
import org.streambench.runner.matrix.TimeBudget;
import org.streambench.runner.results.ResultFolder;
import org.streambench.runner.results.Warmup;
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

    /** What a step costs besides its warm-up and window (job start, prefill, stop, verify), until measured. */
    static final int STEP_OVERHEAD_SECONDS = 15;

    @Option(
            names = "--slo",
            required = true,
            paramLabel = "p99=DURATION",
            description = "The latency objective: the records' end-to-end p99, e.g. p99=50ms (us, ms or s).")
    String slo;

    @Option(
            names = "--parallelisms",
            split = ",",
            paramLabel = "N,...",
            defaultValue = "1",
            description = "The processing parallelisms to search (default: ${DEFAULT-VALUE}).")
    List<String> parallelisms;

    @Option(
            names = "--max-steps",
            paramLabel = "N",
            defaultValue = CapacityInputs.DEFAULT_MAX_STEPS,
            description = "The most steps per parallelism (default: ${DEFAULT-VALUE}).")
    String maxSteps;

    @Option(
            names = "--max-time",
            paramLabel = "DURATION",
            defaultValue = CapacityInputs.DEFAULT_MAX_TIME,
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
        CapacitySearch.Objective objective = CapacityInputs.objective(slo);
        List<Integer> levels = levels(parallelisms);
        CapacitySearch.Bounds bounds = CapacityInputs.bounds(maxSteps, maxTime);
        int steps = bounds.maxSteps();
        long maxSeconds = TimeUnit.NANOSECONDS.toSeconds(bounds.maxNanos());
        if (!command.commandLine().getParseResult().hasMatchedOption("--warmup")) {
            experiment.warmup = Warmup.SERIES_DEFAULT;
        }
        ExperimentSpec base = experiment.toSpec(job);
        // a floor no rate gets below is refused here; one that holds at low rates is warned of once all is checked
        Optional<String> floorWarning = CapacityRun.checkObjective(base, objective);
        job.runner(console); // checks the job options
        DatabaseSession.check(base.database(), connection);
        DatabaseSession.checkConnections(base.database(), base.access(), Collections.max(levels), connection);
        DatabaseSession.checkFault(base, connection);
        Path dir = out != null ? out : ResultFolder.defaultFor("capacity");
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
                TimeBudget.human(levels.size() * CapacityInputs.longestSearchSeconds(bounds, stepSeconds)),
                CapacityInputs.TOLERANCE * 100);
        if (dryRun) {
            floorWarning.ifPresent(command.commandLine().getErr()::println);
            return 0;
        }
        ResultFolder.requireUsable(dir);
        DiskSpace.requireForPrefill(base, connection);
        job.checkMonitor();
        floorWarning.ifPresent(command.commandLine().getErr()::println);
        List<CapacityDocument.Search> searches;
        Runnable stopMonitor = () -> {};
        try (ResultFolder claimed = ResultFolder.claimEmpty(dir, "--out")) {
            stopMonitor = job.startMonitor(console);
            try (DatabaseSession session = DatabaseSession.open(base.database(), connection, console)) {
                searches = CapacityRun.search(
                        base.withDatabaseSettings(session.settings()),
                        levels,
                        objective,
                        bounds,
                        dir,
                        CapacityRun.inFolders(job::runner, experiment.steadyWarmup(), session, console),
                        console);
            }
        } finally {
            stopMonitor.run();
        }
        console.println("capacity: " + dir.resolve(CapacityDocument.FILE));
        return CapacityRun.everyCapacityFound(searches) ? 0 : 1;
    }

    /** --max-steps and --max-time as a search's bounds; bad input if either is not a positive number. */
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
}
