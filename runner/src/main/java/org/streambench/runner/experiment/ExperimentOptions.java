package org.streambench.runner.experiment;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.Databases;
import org.streambench.generator.KeyDistribution;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.local.UserError;
import org.streambench.model.AccessModeName;
import org.streambench.operators.AccessMode;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Fault;
import org.streambench.operators.Guarantee;
import org.streambench.operators.engine.EngineProvider;
import org.streambench.runner.experiment.Names.DatabaseNames;
import org.streambench.runner.experiment.Names.EngineNames;
import org.streambench.runner.results.Warmup;
import picocli.CommandLine.Option;

/** The options that define one experiment; also the keys of a YAML spec file. */
public final class ExperimentOptions {

    /** The runner picks a random unused run token. */
    static final int RUN_TOKEN_UNSET = -1;
    /** A run without --records: timed by --duration (the spec's recordsPerGenerator of 0). */
    private static final long UNBOUNDED = 0;

    static final int MAX_PARALLELISM = 128;
    static final int MAX_BLOB_BYTES = 16 << 20;
    /** A run's warm-up and measured window together: 30 days (and every sum of seconds stays far inside an int). */
    static final long MAX_RUN_SECONDS = 30L * 24 * 3600;

    @Option(
            names = "--engine",
            defaultValue = "flink",
            completionCandidates = EngineNames.class,
            description = "Stream processing engine: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    public String engine;

    @Option(
            names = "--db",
            defaultValue = "postgresql",
            completionCandidates = DatabaseNames.class,
            description = "Database: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    public String database;

    @Option(
            names = "--pattern",
            defaultValue = "update",
            description = "Access pattern: read, insert, update, mixed (default: ${DEFAULT-VALUE}).")
    public String pattern;

    @Option(
            names = "--access",
            defaultValue = AccessModeName.SYNC,
            description = "How the processing operator calls the database: sync (one call per record, as the study),"
                    + " batch:N[,linger=20ms] (up to N records per round trip, sent when full or when the first has"
                    + " waited the linger), async:K (up to K calls in flight per operator instance)"
                    + " (default: ${DEFAULT-VALUE}).")
    public String access;

    @Option(
            names = "--guarantee",
            defaultValue = "none",
            description = "What the pipeline promises when a part of it fails: none (a failure fails the run, as the"
                    + " study), at-least-once (the engine checkpoints and restarts from the last checkpoint; the"
                    + " audit after the run counts what was applied twice), exactly-once (default: ${DEFAULT-VALUE}).")
    public String guarantee;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "DURATION",
            defaultValue = "1s",
            description =
                    "How often the engine checkpoints under a guarantee, e.g. 500ms, 10s (default: ${DEFAULT-VALUE}).")
    public String checkpointInterval;

    @Option(
            names = "--fault",
            paramLabel = "KIND@DURATION",
            description = "Inject a fault: fail-task@10s fails a processing operator instance 10 s after the"
                    + " generators start; fail-checkpoint@10s fails one while it takes the first checkpoint after"
                    + " that (a guarantee only); kill-worker@10s SIGKILLs the JVM of the worker that holds such an"
                    + " instance (--cluster yarn: a Flink TaskManager's or an Apex operator's container); kill-db@10s,down=5s SIGKILLs"
                    + " the suite's own database server and starts it again on its data 5 s later;"
                    + " freeze-db@10s,for=5s SIGSTOPs it for 5 s. With a guarantee the engine recovers; with none"
                    + " the run fails.")
    String fault;

    @Option(
            names = "--blob",
            paramLabel = "BYTES",
            defaultValue = "10000",
            description = "BLOB size in bytes; the study used 1, 10000, 100000 (default: ${DEFAULT-VALUE}).")
    public String blob;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            defaultValue = "30s",
            description = "Measured time after the warm-up, e.g. 30s, 10m (default: ${DEFAULT-VALUE}).")
    public String duration;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION|steady[:MAX]",
            defaultValue = "5s",
            description =
                    "Warm-up before measuring, excluded from the statistics: a duration, "
                            + "or 'steady' (until throughput is steady, at most 120s) or 'steady:MAX' (e.g. steady:3m) (default: ${DEFAULT-VALUE}).")
    public String warmup;

    @Option(
            names = "--rate",
            paramLabel = "RATE",
            defaultValue = "0",
            description = "Records per second over all generators; 0 = unthrottled (default: ${DEFAULT-VALUE}).")
    String rate;

    /** Whether --rate throttles the generators (a rate other than 0). */
    public boolean throttled() {
        return Inputs.rate(rate) != 0;
    }

    @Option(
            names = "--keys",
            paramLabel = "N",
            defaultValue = "10000",
            description =
                    "Prefilled key space for read, update and mixed; the study used 1000000 (default: ${DEFAULT-VALUE}).")
    public String keys;

    @Option(
            names = "--key-distribution",
            paramLabel = "D",
            defaultValue = "uniform",
            description = "How read, update and mixed records pick among the --keys: uniform (as the study),"
                    + " zipfian[:S] (rank k picked in proportion to 1/k^S, S = 0.99 as in YCSB, the popular keys"
                    + " scattered over the key space), latest[:S] (the same by recency: the last prefilled key most"
                    + " often, as YCSB's latest), hotspot:F/P (a fraction P of the picks on a fraction F of"
                    + " the keys, e.g. hotspot:0.2/0.8) (default: ${DEFAULT-VALUE}).")
    public String keyDistribution;

    @Option(
            names = "--parallelism",
            paramLabel = "N",
            defaultValue = "1",
            description = "Parallel instances of the processing operator (default: ${DEFAULT-VALUE}).")
    public String parallelism;

    @Option(
            names = "--generator-parallelism",
            paramLabel = "N",
            defaultValue = "1",
            description = "Parallel generator instances (default: ${DEFAULT-VALUE}).")
    String generatorParallelism;

    @Option(
            names = "--seed",
            paramLabel = "SEED",
            defaultValue = "1",
            description = "Seed of the generators (default: ${DEFAULT-VALUE}).")
    String seed;

    /** A checkpoint interval given to {@code option}, in milliseconds; refused when no engine takes it. */
    public static long checkpointIntervalMillis(String option, String value) {
        long interval = Inputs.millis(option, value);
        if (interval < MIN_CHECKPOINT_INTERVAL_MILLIS) {
            throw new UserError(option + " '" + value + "' is shorter than " + MIN_CHECKPOINT_INTERVAL_MILLIS
                    + "ms, the shortest an engine takes");
        }
        return interval;
    }

    /** Flink's shortest checkpoint interval. */
    static final long MIN_CHECKPOINT_INTERVAL_MILLIS = 10;

    @Option(
            names = "--records",
            paramLabel = "N",
            description = "A bounded run: each generator emits exactly N records and the run ends when all are"
                    + " processed (--duration is then the time limit). Without it the run is timed by --duration.")
    String records;

    @Option(
            names = "--engine-setting",
            paramLabel = "KEY=VALUE",
            description = "Engine option; repeatable. "
                    + "spark: batchIntervalMillis (1000); apex: streamLocality (none, container_local, thread_local), "
                    + "maxInFlight (10000, and at most about 1 s of processing: Apex has no backpressure to the "
                    + "generator).")
    Map<String, String> engineSettings = new LinkedHashMap<>();

    @Option(
            names = "--run-token",
            paramLabel = "TOKEN",
            description = "Fix the token that makes new keys unique (0..524287; default: a random unused one), "
                    + "to reproduce a run key for key.")
    String runToken;

    /** Entries of a spec file's engine-setting mapping; the command line wins per key. */
    public void useSpecFileMappings(Map<String, Map<String, String>> mappingsByOption) {
        mappingsByOption.getOrDefault("engine-setting", Map.of()).forEach(engineSettings::putIfAbsent);
    }

    /** {@code --warmup steady[:MAX]}: the warm-up ends once throughput is steady, after at most MAX (the spec's warmupSeconds). */
    public boolean steadyWarmup() {
        String text = warmup.trim();
        return text.equals("steady") || text.startsWith("steady:");
    }

    /** The longest the warm-up can take: its fixed length, or the maximum of a steady warm-up. */
    public int warmupMaximumSeconds() {
        return steadyWarmup() ? steadyMaximum() : Inputs.seconds("--warmup", warmup);
    }

    private int steadyMaximum() {
        String text = warmup.trim();
        int maximum = text.equals("steady")
                ? Warmup.DEFAULT_MAX_SECONDS
                : Inputs.seconds("--warmup steady:MAX", text.substring("steady:".length()));
        if (maximum < Warmup.WINDOW_SECONDS) {
            throw new UserError("--warmup " + text + ": the maximum must be at least " + Warmup.WINDOW_SECONDS
                    + " s, the window over which steadiness is judged");
        }
        return maximum;
    }

    /** Validates everything that can be checked without a database. */
    public ExperimentSpec toSpec(JobOptions job) {
        EngineProvider parsedEngine = Engines.parse(engine);
        Map<String, String> engineOptions = Engines.settings(parsedEngine, engineSettings);
        DatabaseSession.provider(database);
        Engines.requireConnector(parsedEngine, database);
        Pattern parsedPattern;
        try {
            parsedPattern = Pattern.parse(pattern);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        long blobBytes = Inputs.positiveLong("--blob", blob, " of bytes (the study used 1, 10000 and 100000)");
        if (blobBytes > MAX_BLOB_BYTES) {
            throw new UserError("--blob " + blobBytes + " is larger than 16 MiB (" + MAX_BLOB_BYTES
                    + " bytes), beyond what MEDIUMBLOB and the drivers accept here");
        }
        int durationSeconds = Inputs.seconds("--duration", duration);
        if (durationSeconds < 1) {
            throw new UserError("--duration '" + duration + "' measures nothing; give at least 1s");
        }
        int warmupSeconds = warmupMaximumSeconds();
        if ((long) durationSeconds + warmupSeconds > MAX_RUN_SECONDS) {
            throw new UserError("--duration and --warmup together must be at most " + MAX_RUN_SECONDS / 3600
                    + "h (30 days); give a shorter run");
        }
        if (!steadyWarmup() && durationSeconds <= warmupSeconds) {
            throw new UserError(
                    "--duration (" + durationSeconds + " s) must be longer than --warmup (" + warmupSeconds + " s)");
        }
        long keyCount = Inputs.positiveLong("--keys", keys, "");
        if (keyCount > Keys.MAX_EXISTING_KEYS) {
            throw new UserError("--keys must be at most " + Keys.MAX_EXISTING_KEYS);
        }
        KeyDistribution distribution = keyDistribution(parsedPattern, keyCount);
        int generators = Inputs.positiveInt("--generator-parallelism", generatorParallelism, "");
        if (generators > Math.min(Keys.MAX_INSTANCES, MAX_PARALLELISM)) {
            throw new UserError(
                    "--generator-parallelism must be at most " + Math.min(Keys.MAX_INSTANCES, MAX_PARALLELISM));
        }
        long seedValue;
        try {
            seedValue = Inputs.whole(seed);
        } catch (NumberFormatException e) {
            throw new UserError("--seed '" + seed + "' must be a whole number");
        }
        int processing = Inputs.positiveInt("--parallelism", parallelism, "");
        if (processing > MAX_PARALLELISM) {
            throw new UserError(
                    "--parallelism " + processing + " is more than " + MAX_PARALLELISM
                            + " (each instance holds its own database session; Flink keys records into at most 128 groups by default)");
        }
        long bound = records == null
                ? UNBOUNDED
                : Inputs.positiveLong("--records", records, "; leave --records out for a run timed by --duration");
        int token = runToken == null ? RUN_TOKEN_UNSET : runToken(runToken);
        Guarantee parsedGuarantee = guarantee(parsedEngine, parsedPattern);
        try {
            parsedEngine.checkGuarantee(parsedGuarantee, engineOptions);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        long interval = checkpointIntervalMillis("--checkpoint-interval", checkpointInterval);
        Fault parsedFault = fault(parsedEngine, durationSeconds + warmupSeconds, parsedGuarantee, job.onYarn());
        if ((parsedGuarantee.recovers() || parsedFault != null)
                && job.onYarn()
                && !parsedEngine.recoversOnYarn(parsedGuarantee)) {
            throw new UserError(
                    "--guarantee " + parsedGuarantee.cliName() + (parsedFault != null ? " with --fault" : "")
                            + " is not built for --cluster yarn with " + parsedEngine.name() + " yet (on YARN: "
                            + recoveriesOnYarn() + "; every guarantee the engine gives in a job of its own JVM)");
        }
        return ExperimentSpec.builder(engine, database, parsedPattern)
                .blobBytes((int) blobBytes)
                .durationSeconds(durationSeconds)
                .warmupSeconds(warmupSeconds)
                .rate(Inputs.rate(rate))
                .keys(keyCount)
                .keyDistribution(distribution)
                .parallelism(processing)
                .generatorParallelism(generators)
                .seed(seedValue)
                .runToken(token)
                .recordsPerGenerator(bound)
                .metricsHost(job.metricsHost)
                .metricsPort(metricsPort(job))
                .engineSettings(engineOptions)
                .access(accessMode())
                .guarantee(parsedGuarantee)
                .checkpointIntervalMillis(interval)
                .fault(parsedFault)
                .build();
    }

    private KeyDistribution keyDistribution(Pattern pattern, long keyCount) {
        KeyDistribution parsed;
        try {
            parsed = KeyDistribution.parse(keyDistribution);
            parsed.check(keyCount);
        } catch (IllegalArgumentException e) {
            throw new UserError("--key-distribution: " + e.getMessage());
        }
        if (!parsed.equals(KeyDistribution.UNIFORM) && !pattern.needsExistingKeys()) {
            throw new UserError("--key-distribution " + parsed.cliName() + " picks among existing keys, and every"
                    + " record of an insert run has a new one; use it with read, update or mixed");
        }
        return parsed;
    }

    private Guarantee guarantee(EngineProvider engine, Pattern pattern) {
        Guarantee parsed;
        try {
            parsed = Guarantee.parse(guarantee);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        if (!engine.guarantees().contains(parsed)) {
            throw new UserError("--guarantee " + parsed.cliName() + " is not built for " + engine.name()
                    + " yet; it gives "
                    + engine.guarantees().stream().map(Guarantee::cliName).collect(Collectors.joining(", ")));
        }
        if (parsed == Guarantee.EXACTLY_ONCE) {
            if (!DatabaseSession.provider(database).create().commitsEpochs()) {
                throw new UserError("--guarantee exactly-once commits each checkpoint's writes together with the"
                        + " checkpoint's id, and " + database
                        + " cannot commit them so here; give a database that can ("
                        + String.join(", ", epochCommittingDatabases()) + ") or --guarantee at-least-once");
            }
            if (accessMode().kind() == AccessMode.Kind.ASYNC) {
                throw new UserError(
                        "--guarantee exactly-once writes each checkpoint's records in one transaction"
                                + " when the checkpoint completes, so --access async has no calls to overlap; give sync or batch:N");
            }
        }
        if (parsed == Guarantee.AT_LEAST_ONCE
                && (pattern == Pattern.INSERT || pattern == Pattern.MIXED)
                && !DatabaseSession.provider(database).create().upsertInserts()) {
            throw new UserError("--guarantee at-least-once replays inserts whose first attempt got in, and " + database
                    + " cannot make its inserts upserts; give --guarantee exactly-once, or --pattern update or read");
        }
        return parsed;
    }

    private static List<String> epochCommittingDatabases() {
        return Databases.inOrder().stream()
                .filter(provider -> provider.create().commitsEpochs())
                .map(DatabaseProvider::name)
                .toList();
    }

    private Fault fault(EngineProvider engine, long runSeconds, Guarantee guarantee, boolean onYarn) {
        if (fault == null) {
            return null;
        }
        Fault parsed;
        try {
            parsed = Fault.parse(fault.trim());
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        if (!parsed.kind().onDatabase() && !engine.injectsFaults()) {
            throw new UserError("--fault is not built for " + engine.name() + " yet");
        }
        if (parsed.kind() == Fault.Kind.FAIL_CHECKPOINT && !guarantee.recovers()) {
            throw new UserError("--fault " + fault.trim() + " fails a checkpoint, and --guarantee none takes none;"
                    + " give --guarantee at-least-once or exactly-once, or --fault fail-task@TIME");
        }
        if (parsed.kind() == Fault.Kind.KILL_WORKER && !onYarn) {
            throw new UserError("--fault " + fault.trim() + " kills a worker's JVM for the engine to replace it, and a"
                    + " local job is one JVM; give --cluster yarn, or --fault fail-task@TIME");
        }
        if (parsed.kind() == Fault.Kind.KILL_WORKER && guarantee.recovers() && !engine.recoversAKilledWorker()) {
            throw new UserError("--fault " + fault.trim() + " with --guarantee " + guarantee.cliName()
                    + " is not built for " + engine.name() + " yet: a generator instance restarted in the JVM that"
                    + " replaces a killed one would start over (see docs/guarantees.md); give --fault fail-task@TIME");
        }
        if (records == null && parsed.afterMillis() >= runSeconds * 1000) {
            throw new UserError("--fault " + fault.trim() + " comes after the run's end (" + runSeconds
                    + " s of warm-up and measurement); give an earlier time");
        }
        if (records == null && parsed.endMillis() >= runSeconds * 1000) {
            throw new UserError("--fault " + fault.trim() + " is not over before the run's end (" + runSeconds
                    + " s of warm-up and measurement); give an earlier time or a shorter one");
        }
        return parsed;
    }

    /** --access, checked. */
    public AccessMode accessMode() {
        try {
            return AccessMode.parse(access);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
    }

    private static int runToken(String text) {
        try {
            long token = Inputs.whole(text);
            if (token >= 0 && token <= Keys.MAX_TOKEN) {
                return (int) token;
            }
        } catch (NumberFormatException notANumber) {
            // fall through to the message below
        }
        throw new UserError("--run-token '" + text + "' must be a whole number from 0 to " + Keys.MAX_TOKEN);
    }

    private static int metricsPort(JobOptions job) {
        int port = Inputs.port("--metrics-port", job.metricsPort, true);
        if (port == 0) {
            Optional<Integer> quiet = FreePorts.belowEphemeralRange(job.metricsHost);
            if (quiet.isPresent()) {
                return quiet.get();
            }
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(job.metricsHost, port));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UserError("cannot serve metrics on " + job.metricsHost + ":" + port + " (" + e.getMessage()
                    + "); choose another --metrics-port, or 0 for any free port");
        }
    }

    /** The engines and guarantees that recover on YARN, e.g. "flink exactly-once". */
    private static String recoveriesOnYarn() {
        List<String> recoveries = new ArrayList<>();
        for (EngineProvider engine : Engines.all()) {
            for (Guarantee guarantee : Guarantee.values()) {
                if (engine.recoversOnYarn(guarantee)) {
                    recoveries.add(engine.name() + " " + guarantee.cliName());
                }
            }
        }
        return recoveries.isEmpty() ? "none" : String.join(", ", recoveries);
    }
}
