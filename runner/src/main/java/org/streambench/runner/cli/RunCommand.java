package org.streambench.runner.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.streambench.db.CeilingTool;
import org.streambench.db.Databases;
import org.streambench.local.UserError;
import org.streambench.model.CeilingDocument;
import org.streambench.operators.ExperimentSpec;
import org.streambench.runner.ceiling.CeilingBesideRun;
import org.streambench.runner.ceiling.CeilingTools;
import org.streambench.runner.experiment.ConnectionOptions;
import org.streambench.runner.experiment.DatabaseSession;
import org.streambench.runner.experiment.DiskSpace;
import org.streambench.runner.experiment.ExperimentOptions;
import org.streambench.runner.experiment.ExperimentRunner;
import org.streambench.runner.experiment.FillSteps;
import org.streambench.runner.experiment.JobOptions;
import org.streambench.runner.results.ResultFolder;
import org.streambench.runner.results.RunResult;
import org.streambench.runner.results.Summary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Run one experiment: reset the database, prefill it if the pattern reads, run the job, "
                    + "sample every second, stop, verify, and write result.json and per-second.csv.",
            "Options can also come from a YAML file (--spec); the command line wins."
        },
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {
            "0:the run finished and verification found no mismatch",
            "1:the job failed, or the database does not hold what the operator wrote",
            "2:bad input or an unreachable database (nothing written)"
        })
final class RunCommand implements Callable<Integer>, Bench.SpecFileMappings {

    @Option(
            names = "--spec",
            paramLabel = "FILE",
            description = "YAML experiment spec: keys are these options' names without --, e.g. `pattern: update`.")
    Path specFile;

    @Mixin
    ExperimentOptions experiment;

    @Option(names = "--out", paramLabel = "DIR", description = "Result folder (default: a new folder under results/).")
    Path out;

    @Option(
            names = "--ceiling",
            description = "After the run, the database's own load tool on the same server (as bench ceiling): the"
                    + " run's pattern, BLOB, keys and measured window, its --parallelism as threads; result.json"
                    + " gets ceiling.throughput and ceiling.ratio (the pipeline's throughput over the tool's).")
    boolean ceiling;

    @Option(
            names = "--steps",
            paramLabel = "N",
            description = "Fill level: run the insert experiment N times on one table, reset before the first step"
                    + " only; each step a verified result in DIR/step-K that records the rows stored before it"
                    + " (default: 1, one run on an empty table).")
    String steps;

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
    public Integer call() throws Exception {
        PrintWriter console = command.commandLine().getOut();
        // everything is checked before anything starts or is written
        ExperimentSpec spec = experiment.toSpec(job);
        ExperimentRunner runner = job.runner(console);
        DatabaseSession.check(spec.database(), connection);
        DatabaseSession.checkConnections(spec.database(), spec.access(), spec.parallelism(), connection);
        DatabaseSession.checkFault(spec, connection);
        int fillSteps = FillSteps.parse(steps);
        if (fillSteps > 1 && ceiling) {
            throw new UserError("--ceiling measures beside one run; leave it out of a fill with --steps");
        }
        if (fillSteps > 1) {
            FillSteps.check(
                    spec,
                    fillSteps,
                    command.commandLine().getParseResult().hasMatchedOption("--run-token"),
                    connection);
        }
        CeilingTool ceilingTool = ceiling ? requireCeilingTool(spec) : null;
        Path dir = out != null ? out : ResultFolder.defaultFor(spec);
        ResultFolder.requireUsable(dir);
        DiskSpace.requireForPrefill(spec, connection);
        job.checkMonitor();
        if (fillSteps > 1) {
            return fill(spec, runner, dir, fillSteps, console);
        }
        ResultFolder claimed = ResultFolder.claimEmpty(dir, "--out");
        Runnable stopMonitor = () -> {};
        RunResult result = null;
        CeilingDocument ceilingDocument = null;
        String ceilingFailure = null;
        try {
            stopMonitor = job.startMonitor(console);
            try (DatabaseSession session = DatabaseSession.open(spec.database(), connection, console)) {
                result = runner.run(
                        spec.withDatabaseSettings(session.settings()), experiment.steadyWarmup(), session, dir);
                if (ceilingTool != null && result.passed()) {
                    console.println(Summary.of(result, dir));
                    try {
                        ceilingDocument = CeilingBesideRun.measure(
                                ceilingTool, spec, session, dir.resolve(CEILING_FOLDER), console);
                        CeilingBesideRun.record(dir, ceilingDocument, result, CEILING_FOLDER);
                    } catch (RuntimeException e) { // e.g. the prefill failed: the run's own result stands
                        ceilingFailure = ceilingTool.name() + ": " + e.getMessage();
                        CeilingBesideRun.recordFailure(
                                dir, ceilingTool.name(), spec.parallelism(), ceilingFailure, CEILING_FOLDER);
                    }
                }
            }
        } finally {
            stopMonitor.run();
            claimed.close();
            if (result == null) {
                deleteIfEmpty(dir);
            }
        }
        if (ceilingFailure != null) {
            console.println("ceiling: FAILED: " + ceilingFailure);
            return 1;
        }
        if (ceilingDocument == null) {
            console.println(Summary.of(result, dir));
            if (ceilingTool != null) {
                console.println("no ceiling: the run failed");
            }
            return result.passed() ? 0 : 1;
        }
        console.println(ceilingSummary(ceilingDocument, result, dir));
        return ceilingDocument.status().equals("ok") ? 0 : 1;
    }

    static final String CEILING_FOLDER = "ceiling";

    /** --steps: the fill's steps into DIR/step-K; 0 when every step ran and verified. */
    @SuppressWarnings("try") // the result folder's claim is held, unused, while the steps run
    private int fill(ExperimentSpec spec, ExperimentRunner runner, Path dir, int fillSteps, PrintWriter console)
            throws Exception {
        List<RunResult> results = List.of();
        Runnable stopMonitor = () -> {};
        try (ResultFolder claimed = ResultFolder.claimEmpty(dir, "--out")) {
            stopMonitor = job.startMonitor(console);
            try (DatabaseSession session = DatabaseSession.open(spec.database(), connection, console)) {
                results = FillSteps.run(
                        runner,
                        spec.withDatabaseSettings(session.settings()),
                        experiment.steadyWarmup(),
                        session,
                        dir,
                        fillSteps,
                        connection,
                        console);
            }
        } finally {
            stopMonitor.run();
            if (results.isEmpty()) {
                deleteIfEmpty(dir);
            }
        }
        return FillSteps.passed(results, fillSteps) ? 0 : 1;
    }

    /** The database's ceiling tool, installed, for as many threads as the run's parallelism; else bad input. */
    private static CeilingTool requireCeilingTool(ExperimentSpec spec) {
        CeilingTool tool =
                CeilingTools.requireTool(Databases.provider(spec.database()).orElseThrow());
        CeilingTools.requireClientsFor(spec.parallelism());
        CeilingTools.requireTakes(tool, CeilingBesideRun.requestOf(spec));
        CeilingTools.requireInstalled(tool);
        return tool;
    }

    private static String ceilingSummary(CeilingDocument ceiling, RunResult result, Path dir) {
        Double ratio = CeilingBesideRun.ratio(result, ceiling);
        return CeilingTools.summary(ceiling, dir.resolve(CEILING_FOLDER))
                + (ratio == null
                        ? ""
                        : String.format(Locale.ROOT, "%nthe pipeline reached %.2f of the ceiling", ratio));
    }

    private static void deleteIfEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                Files.delete(dir);
            }
        }
    }
}
