package org.streambench.runner.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.streambench.db.CeilingTool;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.Databases;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.local.UserError;
import org.streambench.model.AccessModeName;
import org.streambench.model.CeilingDocument;
import org.streambench.operators.AccessMode;
import org.streambench.operators.ExperimentSpec;
import org.streambench.runner.ceiling.CeilingBesideRun;
import org.streambench.runner.ceiling.CeilingRun;
import org.streambench.runner.ceiling.CeilingTools;
import org.streambench.runner.experiment.ConnectionOptions;
import org.streambench.runner.experiment.DatabaseSession;
import org.streambench.runner.experiment.DiskSpace;
import org.streambench.runner.experiment.Inputs;
import org.streambench.runner.results.ResultFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "ceiling",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Run the database's own load tool with the processing operator's statements on the suite's table:"
                    + " the ceiling a pipeline's throughput is measured against (see docs/ceiling.md).",
            "The table is reset and prefilled as for a run; afterwards the database is checked to hold what the"
                    + " tool says it wrote. Writes DIR/ceiling.json and the tool's scripts and logs."
        },
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {
            "0:the tool ran and the database holds what it wrote",
            "1:the tool failed, or the database does not hold what it says it wrote",
            "2:bad input, a database without a ceiling tool, or the tool is not installed (nothing written)"
        })
final class CeilingCommand implements Callable<Integer> {

    @Option(names = "--db", defaultValue = "postgresql", description = "Database (default: ${DEFAULT-VALUE}).")
    String database;

    @Option(
            names = "--pattern",
            defaultValue = "update",
            description = "read, insert, update or mixed, as the operator does them (default: ${DEFAULT-VALUE}).")
    String pattern;

    @Option(
            names = "--blob",
            paramLabel = "BYTES",
            defaultValue = "10000",
            description = "BLOB size in bytes (default: ${DEFAULT-VALUE}).")
    String blob;

    @Option(
            names = "--threads",
            paramLabel = "N",
            defaultValue = "1",
            description = "Clients, each making its calls as --access says; compare with --parallelism (default:"
                    + " ${DEFAULT-VALUE}).")
    String threads;

    @Option(
            names = "--access",
            defaultValue = AccessModeName.SYNC,
            description = "How each client calls the database, as bench run's --access: sync, batch:N (N records per"
                    + " round trip) or async:K (K calls in flight), as the connector makes them (default:"
                    + " ${DEFAULT-VALUE}).")
    String access;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            defaultValue = "30s",
            description = "How long the tool runs (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(
            names = "--keys",
            paramLabel = "N",
            defaultValue = "10000",
            description = "Prefilled keys, as bench run's --keys (default: ${DEFAULT-VALUE}).")
    String keys;

    @Option(
            names = "--seed",
            paramLabel = "SEED",
            defaultValue = "1",
            description = "Seed of the prefill, as bench run's (default: ${DEFAULT-VALUE}).")
    String seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Result folder (default: a new folder under results/).")
    Path out;

    @Mixin
    ConnectionOptions connection;

    @Spec
    CommandSpec command;

    @Override
    @SuppressWarnings("try") // the claim of the result folder is held, unused, while the tool runs
    public Integer call() throws Exception {
        PrintWriter console = command.commandLine().getOut();
        DatabaseProvider provider = Databases.provider(database)
                .orElseThrow(() -> new UserError(
                        "unknown database '" + database + "'; use one of: " + String.join(", ", Databases.names())));
        CeilingTool tool = CeilingTools.requireTool(provider);
        CeilingRun.Request request = request();
        CeilingTools.requireTakes(tool, request);
        CeilingTools.requireInstalled(tool);
        DatabaseSession.check(database, connection);
        Path dir = out != null ? out : ResultFolder.defaultFor("ceiling-" + database);
        ResultFolder.requireUsable(dir);
        DiskSpace.requireForPrefill(
                ExperimentSpec.builder("flink", database, request.pattern())
                        .blobBytes(request.blobBytes())
                        .keys(request.keys())
                        .build(),
                connection);
        CeilingDocument document;
        try (ResultFolder claimed = ResultFolder.claimEmpty(dir, "--out");
                DatabaseSession session = DatabaseSession.open(database, connection, console)) {
            document = CeilingRun.run(request, database, tool, session, dir, console);
            CeilingBesideRun.write(document, dir);
        }
        console.println(CeilingTools.summary(document, dir));
        return document.status().equals("ok") ? 0 : 1;
    }

    private CeilingRun.Request request() {
        Pattern parsedPattern;
        try {
            parsedPattern = Pattern.parse(pattern);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        long blobBytes = Inputs.positiveLong("--blob", blob, " of bytes (the study used 1, 10000 and 100000)");
        if (blobBytes > 16 << 20) {
            throw new UserError("--blob " + blobBytes + " is larger than 16 MiB");
        }
        int threadCount = Inputs.positiveInt("--threads", threads, "");
        if (threadCount > CeilingTools.MAX_THREADS) {
            throw new UserError("--threads " + threadCount + " is more than " + CeilingTools.MAX_THREADS);
        }
        int seconds = Inputs.seconds("--duration", duration);
        if (seconds < 1) {
            throw new UserError("--duration '" + duration + "' measures nothing; give at least 1s");
        }
        long keyCount = Inputs.positiveLong("--keys", keys, "");
        if (keyCount > Keys.MAX_EXISTING_KEYS) {
            throw new UserError("--keys must be at most " + Keys.MAX_EXISTING_KEYS);
        }
        long seedValue;
        try {
            seedValue = Inputs.whole(seed);
        } catch (NumberFormatException e) {
            throw new UserError("--seed '" + seed + "' must be a whole number");
        }
        AccessMode accessMode;
        try {
            accessMode = AccessMode.parse(access);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        return new CeilingRun.Request(
                parsedPattern, (int) blobBytes, keyCount, threadCount, accessMode, seconds, seedValue);
    }
}
