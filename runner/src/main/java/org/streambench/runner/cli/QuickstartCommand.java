package org.streambench.runner.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.streambench.generator.Pattern;
import org.streambench.model.AccessModeName;
import org.streambench.operators.ExperimentSpec;
import org.streambench.runner.experiment.ConnectionOptions;
import org.streambench.runner.experiment.DatabaseSession;
import org.streambench.runner.experiment.DiskSpace;
import org.streambench.runner.experiment.ExperimentOptions;
import org.streambench.runner.experiment.ExperimentRunner;
import org.streambench.runner.experiment.JobOptions;
import org.streambench.runner.results.ResultFolder;
import org.streambench.runner.results.RunResult;
import org.streambench.runner.results.Summary;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "quickstart",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description =
                "The four patterns at one BLOB size on Flink x PostgreSQL (the suite's own, or --db-url), short runs, one table.")
final class QuickstartCommand implements Callable<Integer>, Bench.SpecFileMappings {

    @Option(
            names = "--spec",
            paramLabel = "FILE",
            description = "YAML file with these options' values (keys without --); the command line wins.")
    Path specFile;

    @Option(
            names = "--blob",
            paramLabel = "BYTES",
            defaultValue = "10000",
            description = "BLOB size in bytes (default: ${DEFAULT-VALUE}).")
    String blob;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            defaultValue = "10s",
            description = "Measured time per pattern (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION|steady[:MAX]",
            defaultValue = "3s",
            description = "Warm-up per pattern (default: ${DEFAULT-VALUE}).")
    String warmup;

    @Option(
            names = "--keys",
            paramLabel = "N",
            defaultValue = "10000",
            description = "Prefilled key space (default: ${DEFAULT-VALUE}).")
    String keys;

    @Option(
            names = "--access",
            defaultValue = AccessModeName.SYNC,
            description = "How the operator calls the database, as bench run takes it: sync, batch:N[,linger=20ms],"
                    + " async:K (default: ${DEFAULT-VALUE}).")
    String access;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Folder for the four runs' result folders " + "(default: results/quickstart-<date>-<time>).")
    Path out;

    @Mixin
    ConnectionOptions connection;

    @Mixin
    JobOptions job;

    @Spec
    CommandSpec command;

    @Override
    public void useSpecFileMappings(Map<String, Map<String, String>> mappingsByOption) {
        connection.useSpecFileMappings(mappingsByOption);
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter console = command.commandLine().getOut();
        // every other experiment option keeps the default `bench run` has
        ExperimentOptions options = CommandLine.populateCommand(
                new ExperimentOptions(),
                "--engine",
                "flink",
                "--db",
                "postgresql",
                "--blob",
                blob,
                "--duration",
                duration,
                "--warmup",
                warmup,
                "--keys",
                keys,
                "--access",
                access);
        ExperimentSpec base = options.toSpec(job);
        ExperimentRunner runner = job.runner(console);
        DatabaseSession.check("postgresql", connection);
        DatabaseSession.checkConnections("postgresql", base.access(), base.parallelism(), connection);
        Path root = out != null ? out : ResultFolder.defaultFor("quickstart");
        ResultFolder.requireUsable(root);
        DiskSpace.requireForPrefill(base.withPattern(Pattern.UPDATE), connection);
        job.checkMonitor();
        List<RunResult> results = new ArrayList<>();
        Runnable stopMonitor = job.startMonitor(console);
        try (DatabaseSession session = DatabaseSession.open("postgresql", connection, console)) {
            for (Pattern pattern : Pattern.values()) {
                console.printf("%n== %s ==%n", pattern.cliName());
                ExperimentSpec spec = base.withPattern(pattern).withDatabaseSettings(session.settings());
                Path dir = Files.createDirectories(root.resolve(pattern.cliName()));
                RunResult result = runner.run(spec, options.steadyWarmup(), session, dir);
                console.println(Summary.of(result, dir));
                results.add(result);
            }
        } finally {
            stopMonitor.run();
        }
        console.printf(
                Locale.ROOT,
                "%nFlink x PostgreSQL (%s), %s B BLOBs, %s measured per pattern, results in %s%n",
                connection.url == null ? "the suite's local server" : connection.url.replaceFirst("\\?.*", ""),
                blob,
                duration,
                root);
        console.printf(
                Locale.ROOT,
                "%-8s %12s %10s %14s %10s %s%n",
                "pattern",
                "records/s",
                "sd",
                "read mean us",
                "p99 us",
                "verification");
        for (RunResult r : results) {
            boolean reads = r.spec().pattern().reads() && r.readLatencyMicros() != null;
            console.printf(
                    Locale.ROOT,
                    "%-8s %12.0f %10.0f %14s %10s %s%n",
                    r.spec().pattern().cliName(),
                    r.throughput().mean(),
                    r.throughput().stddev(),
                    reads
                            ? String.format(
                                    Locale.ROOT, "%.0f", r.readLatencyMicros().mean())
                            : "-",
                    reads ? Long.toString(r.readLatencyMicros().p99()) : "-",
                    r.passed() ? "ok (" + r.verification().checked() + " checks)" : "FAILED: " + r.error());
        }
        return results.stream().allMatch(RunResult::passed) ? 0 : 1;
    }
}
