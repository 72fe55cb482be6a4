package org.streambench.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.streambench.operators.ExperimentSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run one experiment: reset the database, prefill it if the pattern reads, run the job, "
                + "sample every second, stop, verify, and write result.json and per-second.csv.",
                "Options can also come from a YAML file (--spec); the command line wins."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:the run finished and verification found no mismatch",
                "1:the job failed, or the database does not hold what the operator wrote",
                "2:bad input or an unreachable database (nothing written)"})
final class RunCommand implements Callable<Integer> {

    @Option(names = "--spec", paramLabel = "FILE", description = "YAML experiment spec: keys are these options' names without --, e.g. `pattern: update`.")
    Path specFile;

    @Mixin
    ExperimentOptions experiment;

    @Option(names = "--out", paramLabel = "DIR", description = "Result folder (default: a new folder under results/).")
    Path out;

    @Mixin
    ConnectionOptions connection;

    @Mixin
    JobOptions job;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() throws Exception {
        PrintWriter console = command.commandLine().getOut();
        ExperimentSpec spec = experiment.toSpec(job);
        ExperimentRunner runner = job.runner(console);
        Path dir = out != null ? out : defaultResultDir(spec);
        requireUsable(dir);
        try (DatabaseSession session = DatabaseSession.open(spec.database(), connection, console)) {
            Files.createDirectories(dir);
            RunResult result;
            try {
                result = runner.run(spec.withDatabaseSettings(session.settings()), session, dir);
            } catch (RuntimeException e) {
                deleteIfEmpty(dir);
                throw e;
            }
            console.println(summary(result, dir));
            return result.passed() ? 0 : 1;
        }
    }

    static Path defaultResultDir(ExperimentSpec spec) {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        return Home.root().resolve("results").resolve(stamp + "-" + spec.engine() + "-" + spec.database() + "-"
                + spec.pattern().cliName() + "-" + spec.blobBytes());
    }

    static void requireUsable(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new UserError("result folder " + dir + " is not empty; choose another --out");
                }
            }
        } else if (Files.exists(dir)) {
            throw new UserError("--out " + dir + " is a file, not a folder");
        }
    }

    private static void deleteIfEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            if (entries.findAny().isEmpty()) {
                Files.delete(dir);
            }
        }
    }

    static String summary(RunResult r, Path dir) {
        ExperimentSpec s = r.spec();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s x %s, %s, %d B: ",
                s.engine(), s.database(), s.pattern().cliName(), s.blobBytes()));
        if (r.environment().databaseNote() != null) {
            line.append("[").append(r.environment().databaseNote()).append("] ");
        }
        if (CleanupOnExit.exiting()) {
            return line.append("INTERRUPTED: the result folder says so -> ").append(dir).toString();
        }
        if (!"ok".equals(r.status())) {
            return line.append("FAILED: ").append(r.error()).append(" -> ").append(dir).toString();
        }
        line.append(String.format(Locale.ROOT, "%,.0f records/s (sd %,.0f)", r.throughput().mean(), r.throughput().stddev()));
        if (s.pattern().reads() && r.readLatencyMicros() != null) {
            line.append(String.format(Locale.ROOT, ", read latency %.0f us (sd %.0f, p99 %d)",
                    r.readLatencyMicros().mean(), r.readLatencyMicros().stddev(), r.readLatencyMicros().p99()));
        }
        Verifier.Verification v = r.verification();
        line.append(String.format(Locale.ROOT, ", verification %d checks, %d mismatches", v.checked(), v.mismatches()));
        if (!v.details().isEmpty()) {
            line.append(" (").append(v.details().get(0)).append(")");
        }
        return line.append(" -> ").append(dir).toString();
    }
}
