package org.streambench.runner.experiment;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.SensorRecord;
import org.streambench.local.CleanupOnExit;
import org.streambench.local.Folders;
import org.streambench.local.Home;
import org.streambench.model.RunDocument;
import org.streambench.model.RunDocument.Environment;
import org.streambench.model.RunDocument.Second;
import org.streambench.model.RunDocument.Verification;
import org.streambench.operators.Blob;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Fault;
import org.streambench.operators.Guarantee;
import org.streambench.operators.JobProtocol;
import org.streambench.operators.JobReport;
import org.streambench.operators.OperatorMetrics;
import org.streambench.operators.engine.EngineProvider;
import org.streambench.runner.calibration.MachineCalibration;
import org.streambench.runner.monitor.DeviceUsage;
import org.streambench.runner.monitor.ExporterCounters;
import org.streambench.runner.monitor.ProcessUsage;
import org.streambench.runner.monitor.ResourceMetrics;
import org.streambench.runner.monitor.ResourceWatch;
import org.streambench.runner.monitor.ScrapeTargets;
import org.streambench.runner.results.ResultFiles;
import org.streambench.runner.results.RunResult;
import org.streambench.runner.results.Warmup;
import org.streambench.runner.results.WindowStatistics;

/**
 * Runs one experiment against an open database: reset, prefill, launch the engine's job JVM,
 * sample throughput and read latency every second from its metrics endpoint, stop it, verify
 * the database, write the result files.
 */
public final class ExperimentRunner {

    public static final String JOB_LOG = "job.log";
    public static final String JOB_SPEC = "spec.properties";
    /** The job JVM's temporary folder inside the run folder, deleted when the job ends (engines leave files behind). */
    public static final String JOB_TMP = "job-tmp";
    /** On YARN, the containers' logs, one folder per container, where the runner can read them. */
    public static final String YARN_LOGS = "yarn-logs";

    private static final long SECOND = 1_000_000_000L;
    private static final long OVER_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final int PROGRESS_EVERY_SECONDS = 5;
    /** The end of a steady warm-up is not known yet. */
    private static final int UNDECIDED = -1;

    private final PrintWriter out;
    private final String jobHeap;
    private final int startupTimeoutSeconds;
    private final int stopTimeoutSeconds;
    private final String collectorBindHost;
    private final String collectorHost;
    private final JobLauncher launcher;

    public ExperimentRunner(PrintWriter out, String jobHeap, int startupTimeoutSeconds, int stopTimeoutSeconds) {
        this(out, jobHeap, startupTimeoutSeconds, stopTimeoutSeconds, LOOPBACK, LOOPBACK, new LocalJobLauncher(out));
    }

    /**
     * @param collectorBindHost where the collector that the job's workers report to listens
     * @param collectorHost     the address the workers reach it by
     * @param launcher          where the job runs: in a JVM of its own here, or on YARN
     */
    public ExperimentRunner(
            PrintWriter out,
            String jobHeap,
            int startupTimeoutSeconds,
            int stopTimeoutSeconds,
            String collectorBindHost,
            String collectorHost,
            JobLauncher launcher) {
        this.out = out;
        this.jobHeap = jobHeap;
        this.startupTimeoutSeconds = startupTimeoutSeconds;
        this.stopTimeoutSeconds = stopTimeoutSeconds;
        this.collectorBindHost = collectorBindHost;
        this.collectorHost = collectorHost;
        this.launcher = launcher;
    }

    private static final String LOOPBACK = "127.0.0.1";
    /** A worker silent this long, while the run is not over, has died (its JVM on a cluster is not the runner's to watch). */
    private static final Duration WORKER_SILENCE = Duration.ofSeconds(15);
    /** How long a job JVM whose metrics endpoint closed is given to end: a killed JVM closes its socket as it dies. */
    private static final Duration DEATH_GRACE = Duration.ofMillis(500);
    /** How long a database asked during a second without records has to answer a new connection. */
    private static final int STALL_PROBE_SECONDS = 5;

    /** How often the runner asks YARN whether the job's application failed while it waits for the first record. */
    private static final Duration APPLICATION_CHECK_INTERVAL = Duration.ofSeconds(2);

    /**
     * Runs the experiment into {@code dir}. If the runner is interrupted meanwhile, {@code dir} is
     * left holding a result.json whose status is "interrupted", never something that looks like a result.
     */
    public RunResult run(ExperimentSpec requested, boolean steadyWarmup, DatabaseSession session, Path dir)
            throws IOException, InterruptedException {
        return run(requested, steadyWarmup, session, dir, null);
    }

    /**
     * As {@link #run(ExperimentSpec, boolean, DatabaseSession, Path)}, as step {@code step} of a
     * fill-level run of {@code steps}: only its first step resets the database; every later one
     * inserts into what the steps before it left, and result.json says how many rows it found.
     */
    public RunResult runStep(
            ExperimentSpec requested, boolean steadyWarmup, DatabaseSession session, Path dir, int step, int steps)
            throws IOException, InterruptedException {
        return run(requested, steadyWarmup, session, dir, new FillStep(step, steps));
    }

    private record FillStep(int step, int steps) {}

    @SuppressWarnings("try") // the registration's close() is the cleanup
    private RunResult run(
            ExperimentSpec requested, boolean steadyWarmup, DatabaseSession session, Path dir, FillStep fill)
            throws IOException, InterruptedException {
        String startedAt = Instant.now().toString();
        try (CleanupOnExit.Registration marker = CleanupOnExit.register(
                "mark " + dir + " as interrupted", () -> ResultFiles.writeInterrupted(requested, startedAt, dir))) {
            return runMarked(requested, steadyWarmup, session, dir, startedAt, fill);
        }
    }

    /** Resets the database (unless this is a fill-level run's later step) and opens the collector that the job's workers report to. */
    private RunResult runMarked(
            ExperimentSpec requested,
            boolean steadyWarmup,
            DatabaseSession session,
            Path dir,
            String startedAt,
            FillStep fill)
            throws IOException, InterruptedException {
        Database database = session.database();
        boolean storesData = session.storesData();
        if (session.note() != null) {
            out.println(session.note());
        }
        CommitCadence.note(requested, Engines.parse(requested.engine())).ifPresent(out::println);
        killCaveat(requested, session).ifPresent(caveat -> out.println("warning: " + caveat));
        Phases phases = new Phases();
        if (fill == null || fill.step() == 1) {
            database.resetSchema();
            phases.lap("reset");
        }
        Map<String, String> durability = database.durabilitySettings();
        try (JobCollector collector = new JobCollector(collectorBindHost, collectorHost)) {
            ExperimentSpec spec = (requested.runToken() == ExperimentOptions.RUN_TOKEN_UNSET
                            ? requested.withRunToken(unusedRunToken(database, storesData))
                            : requested)
                    .withCollector(collector.url());
            if (spec.fault() != null && spec.fault().kind() == Fault.Kind.KILL_WORKER) {
                collector.faultKillsItsWorker();
            }
            if (spec.guarantee().recovers() && !launcher.cluster().equals("local")) {
                collector.engineReplacesWorkers();
            }
            spec.write(dir.resolve(JOB_SPEC));
            return runCollected(spec, steadyWarmup, session, dir, startedAt, collector, phases, durability, fill);
        }
    }

    @SuppressWarnings("try") // the registrations' close() is the cleanup
    private RunResult runCollected(
            ExperimentSpec spec,
            boolean steadyWarmup,
            DatabaseSession session,
            Path dir,
            String startedAt,
            JobCollector collector,
            Phases phases,
            Map<String, String> durability,
            FillStep fill)
            throws IOException, InterruptedException {
        EngineProvider engine = Engines.parse(spec.engine());
        boolean storesData = session.storesData();
        String databaseVersion = session.version();

        // the job JVM starts its engine while the database is prefilled and settles; its
        // generators wait for the start request sent once the database is ready
        List<Second> seconds = new ArrayList<>();
        String error = null;
        String settled = null;
        long rowsBefore = 0;
        Path jobTmp = dir.resolve(JOB_TMP);
        String clusterVersion = launcher.clusterVersion();
        Files.createDirectories(jobTmp);
        JobLauncher.Job job = launcher.launch(engine, spec, dir, jobTmp, jobHeap, dir.resolve(JOB_LOG));
        StallWatch stallWatch = new StallWatch(() -> session.unreachable(STALL_PROBE_SECONDS));
        ResourceWatch resources = spec.bounded() ? ResourceWatch.NONE : resourceWatch(session, launcher, job);
        DatabaseFault databaseFault = DatabaseFault.of(spec, session, out);
        try (CleanupOnExit.Registration endJob = CleanupOnExit.register("stop the job JVM", () -> end(job, dir));
                ScrapeTargets.Registration target = new ScrapeTargets(Home.work())
                        .add(
                                job.process().toHandle(),
                                spec.metricsHost(),
                                spec.metricsPort(),
                                Map.of("role", "job", "run", dir.toString()));
                ResourceMetrics live = liveResources(resources, spec, dir)) {
            // Prometheus scrapes every worker of the job, wherever it runs
            collector.onNewWorker(target::targets);
            if (spec.pattern().needsExistingKeys()) {
                out.printf(Locale.ROOT, "prefilling %,d keys with %,d-byte BLOBs ...%n", spec.keys(), spec.blobBytes());
                long start = System.nanoTime();
                Blob.Pool blobs = Blob.pool(spec);
                session.database().prefill(spec.keys(), RecordGenerator::prefill, i -> blobs.forKey(Keys.existing(i)));
                double prefillSeconds = (System.nanoTime() - start) / 1e9;
                out.printf(
                        Locale.ROOT,
                        "prefilled in %.1f s (%,.0f keys/s, %.0f MB/s of BLOBs)%n",
                        prefillSeconds,
                        spec.keys() / prefillSeconds,
                        spec.keys() * (double) spec.blobBytes() / prefillSeconds / 1e6);
            }
            phases.lap("prefill");
            settled = session.settle();
            out.println("settled: " + settled);
            rowsBefore = session.database().countRows();
            phases.lap("settle");
            sample(
                    job,
                    spec,
                    collector,
                    steadyWarmup,
                    dir.resolve(JOB_LOG),
                    seconds,
                    phases,
                    stallWatch,
                    resources,
                    databaseFault::recordsFlowing);
        } catch (JobFailure failure) {
            error = failure.getMessage();
        } finally {
            try {
                end(job, dir);
            } finally {
                databaseFault.close();
            }
            phases.lap("stop");
        }
        if (databaseFault.failure() != null) {
            error = error == null ? databaseFault.failure() : error + "; " + databaseFault.failure();
        }
        Optional<String> failure = collector.failure();
        if (error == null && (failure.isPresent() || !collector.allFinal())) {
            error = "the " + engine.name() + " job " + describeEnd(job, dir.resolve(JOB_LOG), failure);
        }
        boolean finished = collector.allFinal() && failure.isEmpty();
        JobReport report = collector.report(finished ? "finished" : "failed", finished ? null : error);
        if (error == null && report.errors() > 0) {
            error = report.errors() + " database calls failed; first: " + report.firstError();
        }
        if (error == null && !spec.bounded()) {
            error = measuredNothing(seconds);
        }
        if (error != null) {
            Optional<String> unreachable = session.unreachable().or(stallWatch::finding);
            error += unreachable.map(problem -> "; " + problem).orElse("");
            if (databaseFault.failure() == null && databaseFault.injectedAtEpochMillis() > 0) {
                error += " (after the injected fault " + spec.fault() + ")";
            }
        }
        stallWatch.close();
        Database database = null;
        try {
            database = session.database();
        } catch (DatabaseException e) {
            error = (error == null ? "" : error + "; ") + "the database cannot be reached after the run: "
                    + e.getMessage();
            finished = false;
        }
        Verification verification = null;
        if (finished) {
            out.println("verifying the database ...");
            try {
                verification = new Verifier(spec).verify(report, database, storesData, rowsBefore);
                if (error == null && verification.mismatches() > 0) {
                    error = "verification found " + verification.mismatches() + " mismatches"
                            + (verification.details().isEmpty()
                                    ? ""
                                    : "; first: " + verification.details().get(0));
                }
            } catch (DatabaseException e) {
                error = (error == null ? "" : error + "; ") + "verification failed: " + e.getMessage();
            }
            phases.lap("verify");
        }
        RunDocument.Recovery recovery = null;
        if (spec.guarantee().recovers() || spec.fault() != null) {
            RunDocument.Audit audit = null;
            if (finished && storesData && spec.guarantee().recovers()) {
                out.println("auditing every updated key for duplicates and losses ...");
                try {
                    audit = new RecoveryAudit(spec, report.emittedByInstance()).audit(database);
                    error = error != null ? error : auditFailure(spec.guarantee(), audit);
                } catch (DatabaseException e) {
                    error = (error == null ? "" : error + "; ") + "the audit failed: " + e.getMessage();
                }
                phases.lap("audit");
            }
            Optional<String> killCaveat = killCaveat(spec, session);
            error = withKillCaveat(error, killCaveat);
            recovery = new RunDocument.Recovery(
                    engine.guaranteeSettings(spec),
                    report == null ? 0 : report.restartedInstances(),
                    report == null ? 0 : Math.max(0, report.totalProcessed() - report.totalEmitted()),
                    audit,
                    faultRecovery(seconds, report, databaseFault),
                    killCaveat.orElse(null));
        }
        Environment environment = new Environment(
                launcher.cluster(),
                job.applicationId(),
                clusterVersion,
                job.resources(),
                jobHeap,
                collector.workers(),
                report == null ? null : report.engineVersion(),
                databaseVersion,
                session.note(),
                durability,
                session.profile(),
                settled,
                System.getProperty("java.vendor") + " " + System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                InetAddress.getLocalHost().getHostName(),
                ExperimentRunner.class.getPackage().getImplementationVersion(),
                Home.commit(),
                MachineCalibration.current(Home.work(), out));
        RunDocument.Resources used = resources.resources(
                measuredRecords(seconds), spec.pattern() == Pattern.READ ? null : payloadBytes(spec));
        RunResult result = new RunResult(
                spec,
                Warmup.of(steadyWarmup, spec, seconds),
                error == null ? "ok" : "failed",
                error,
                startedAt,
                WindowStatistics.throughput(seconds),
                WindowStatistics.rate(spec.rate(), seconds),
                report == null ? null : report.latency(),
                seconds,
                verification,
                report,
                environment,
                phases.seconds(),
                recovery,
                used,
                fill == null ? null : new RunDocument.Fill(fill.step(), fill.steps(), rowsBefore));
        ResultFiles.write(result, dir);
        if (used != null) {
            out.println(ResourceWatch.describe(used));
        }
        return result;
    }

    /**
     * The processes of each role that the runner can watch: the suite's own database server, the
     * job's JVM when it runs here, and the runner itself (its own JVM only: the job and a server
     * it started are roles of their own).
     */
    private static ResourceWatch resourceWatch(DatabaseSession session, JobLauncher launcher, JobLauncher.Job job) {
        Map<String, Supplier<Collection<ProcessHandle>>> roles = new LinkedHashMap<>();
        Map<String, String> notSeen = new LinkedHashMap<>();
        List<ScrapeTargets.Exporter> exporters = new ScrapeTargets(Home.work()).exporters();
        if (!ProcessUsage.available()) {
            notSeen.put("all", "this system has no /proc to read processes' use from");
            return new ResourceWatch(roles, notSeen, null, Map::of, ExporterCounters.NONE);
        }
        String device = null;
        if (session.localServer()) {
            roles.put(RunDocument.Resources.DATABASE, session::serverProcesses);
            device = session.serverFolder().flatMap(DeviceUsage::holding).orElse(null);
        } else if (session.storesData()) {
            notSeen.put(
                    RunDocument.Resources.DATABASE,
                    "an external server (--db-url): its processes run elsewhere; " + exportersRead(exporters));
        }
        if (launcher.cluster().equals("local")) {
            roles.put(
                    RunDocument.Resources.ENGINE,
                    () -> ProcessUsage.tree(job.process().toHandle()));
        } else {
            notSeen.put(
                    RunDocument.Resources.ENGINE,
                    "a job on " + launcher.cluster() + ": its workers run in the cluster's containers");
        }
        roles.put(RunDocument.Resources.RUNNER, () -> List.of(ProcessHandle.current()));
        return new ResourceWatch(
                roles, notSeen, device, () -> serverCounters(session), new ExporterCounters(exporters));
    }

    /** Which exporters of an external server's machine the run reads (bench monitor scrape). */
    private static String exportersRead(List<ScrapeTargets.Exporter> exporters) {
        return exporters.isEmpty()
                ? "no exporter of its machine is scraped (bench monitor scrape)"
                : "what its machine's exporters show is in resources.exporters: "
                        + String.join(
                                ", ",
                                exporters.stream()
                                        .map(e -> e.name() + " (" + e.url() + ")")
                                        .toList());
    }

    /** The watched processes' use as Prometheus series for the run's time, or null when it watches none. */
    private static ResourceMetrics liveResources(ResourceWatch resources, ExperimentSpec spec, Path dir)
            throws IOException {
        if (resources.roles().isEmpty()) {
            return null;
        }
        return new ResourceMetrics(
                Home.work(), resources, OperatorMetrics.runTags(spec), Map.of("run", dir.toString()));
    }

    /** The database server's counters now; none when it cannot tell (they are a figure beside the run, never its cause to fail). */
    private static Map<String, Long> serverCounters(DatabaseSession session) {
        try {
            return session.database().serverCounters();
        } catch (DatabaseException e) {
            return Map.of();
        }
    }

    /** Records processed in the measured seconds. */
    private static long measuredRecords(List<Second> seconds) {
        return seconds.stream()
                .filter(s -> !s.warmup())
                .mapToLong(Second::records)
                .sum();
    }

    /** What one record writes: its BLOB, its 12-character id and its three ints and three doubles. */
    static int payloadBytes(ExperimentSpec spec) {
        return spec.blobBytes() + RECORD_FIELD_BYTES;
    }

    private static final int RECORD_FIELD_BYTES = SensorRecord.ID_LENGTH + 3 * Integer.BYTES + 3 * Double.BYTES;

    /**
     * Why the audit of a run whose guarantee recovers from a killed server may count the server's
     * own losses as the pipeline's, or empty (no such fault, or a server that keeps what it acknowledged).
     */
    private static Optional<String> killCaveat(ExperimentSpec spec, DatabaseSession session) {
        boolean killed = spec.fault() != null && spec.fault().kind() == Fault.Kind.KILL_DB;
        return killed && spec.guarantee().recovers() ? session.killLosesAcknowledgedWrites() : Optional.empty();
    }

    /**
     * Why the audit fails the run, or null: exactly-once fails on any duplicate or loss,
     * at-least-once on a loss (its duplicates are the price it names); either on an unexplained key.
     */
    static String auditFailure(Guarantee guarantee, RunDocument.Audit audit) {
        boolean failed = audit.unexplainedKeys() > 0
                || audit.losses() > 0
                || (guarantee == Guarantee.EXACTLY_ONCE && audit.duplicates() > 0);
        if (!failed) {
            return null;
        }
        return "the audit of " + audit.keysAudited() + " keys found " + audit.duplicates() + " records applied twice, "
                + audit.losses() + " not applied and " + audit.unexplainedKeys() + " keys wrong otherwise, against "
                + guarantee.cliName()
                + (audit.details().isEmpty()
                        ? ""
                        : "; first: " + audit.details().get(0));
    }

    /** A failed run's error with the caveat of its killed server, which may be the cause; null for a run that passed. */
    static String withKillCaveat(String error, Optional<String> killCaveat) {
        return error == null
                ? null
                : error + killCaveat.map(caveat -> " (" + caveat + ")").orElse("");
    }

    /**
     * Kills the job JVM if it still runs (on YARN: the application, then its submitter), waits for
     * it, and deletes its temporary folder (on a YARN cluster with HDFS, also there); on YARN, copies the
     * containers' logs into the run's folder.
     */
    private void end(JobLauncher.Job job, Path dir) {
        Path jobTmp = dir.resolve(JOB_TMP);
        job.killOnCluster();
        Process process = job.process();
        if (process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        try {
            process.waitFor(10, TimeUnit.SECONDS);
            job.ended();
            job.keepLogs(dir);
            job.deleteStagingOnCluster(jobTmp);
            deleteJobTmp(jobTmp);
        } catch (IOException e) {
            out.println("warning: could not delete the job's temporary folder " + jobTmp + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Deletes the job's temporary folder; a killed application's containers may still write into
     * it for a moment (Apex's checkpoints on YARN), so a delete that met the tree changing is tried
     * again, twice, a second apart.
     */
    private static void deleteJobTmp(Path jobTmp) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                Folders.deleteTree(jobTmp);
                return;
            } catch (IOException e) {
                if (attempt == 3) {
                    throw e;
                }
                Thread.sleep(1000);
            }
        }
    }

    /** How the job ended: locally its JVM's end; on YARN, unless a worker said why, its application's. */
    private static String describeEnd(JobLauncher.Job job, Path jobLog, Optional<String> failure) {
        String application = failure.isEmpty() ? job.describe() : "";
        return application.isEmpty()
                ? JobEnd.describe(job.process(), jobLog, failure)
                : "ended" + application + "; log: " + jobLog;
    }

    /** A run token whose first new key is not in the database yet (runs that keep old data stay unique). */
    private static int unusedRunToken(Database database, boolean storesData) {
        SecureRandom random = new SecureRandom();
        for (int attempt = 0; attempt < 20; attempt++) {
            int token = random.nextInt(Keys.MAX_TOKEN + 1);
            if (!storesData || database.read(Keys.fresh(token, 0, 0)).isEmpty()) {
                return token;
            }
        }
        throw new IllegalStateException("found no unused run token in 20 attempts");
    }

    public void sample(Process job, ExperimentSpec spec, JobCollector collector, Path jobLog, List<Second> seconds)
            throws InterruptedException, JobFailure {
        sample(
                () -> job,
                spec,
                collector,
                false,
                jobLog,
                seconds,
                new Phases(),
                StallWatch.NONE,
                ResourceWatch.NONE,
                () -> {});
    }

    /**
     * Samples the job every second: the warm-up (a fixed number of seconds, or with
     * {@code steadyWarmup} until throughput is steady, at most {@code spec.warmupSeconds()}), then
     * the measured seconds; then asks the job to stop.
     */
    void sample(
            JobLauncher.Job job,
            ExperimentSpec spec,
            JobCollector collector,
            boolean steadyWarmup,
            Path jobLog,
            List<Second> seconds,
            Phases phases,
            StallWatch stallWatch,
            ResourceWatch resources,
            Runnable recordsFlowing)
            throws InterruptedException, JobFailure {
        MetricsScraper.Snapshot previous = awaitFirstRecords(job, spec, collector, jobLog);
        phases.lap("jobStart");
        recordsFlowing.run();
        if (previous == null) {
            return; // a bounded run so short that it was over before the first sample
        }
        resources.second(); // the start of the first second's CPU use
        int warmupEnd = steadyWarmup ? UNDECIDED : spec.warmupSeconds(); // the last second of the warm-up
        out.printf(
                Locale.ROOT,
                "records flowing; %s warm-up, then %d s measured%n",
                steadyWarmup ? "a steady (at most " + spec.warmupSeconds() + " s)" : spec.warmupSeconds() + " s",
                spec.durationSeconds());
        if (warmupEnd == 0) {
            if (!control(job, spec, collector, jobLog, JobProtocol.MEASURE_PATH)) {
                return;
            }
            resources.windowStarts();
        }
        long start = previous.nanoTime();
        for (int second = 1; warmupEnd == UNDECIDED || second <= warmupEnd + spec.durationSeconds(); second++) {
            // a job that ends by itself (a bounded run, or a failed one) is seen at once, not at the next whole second
            if (awaitOver(job, collector, start + second * SECOND)) {
                if (spec.bounded() && collector.failure().isEmpty()) {
                    return; // a bounded run ends by itself once every record is processed
                }
                throw new JobFailure("the " + spec.engine() + " job "
                        + describeEnd(job, jobLog, collector.failure()) + " (" + (second - 1)
                        + " s into the run)");
            }
            requireWorkersAlive(spec, collector);
            MetricsScraper.Snapshot now = scrape(job, spec, collector, jobLog);
            if (now == null) {
                return;
            }
            double reads = now.reads() - previous.reads();
            Map<String, Double> cpuCores = resources.second();
            seconds.add(new Second(
                    second,
                    now.jobEpochNanos() / 1_000_000,
                    now.secondsSince(previous),
                    warmupEnd == UNDECIDED || second <= warmupEnd,
                    Math.round(now.records() - previous.records()),
                    Math.round(now.generated() - previous.generated()),
                    Math.round(reads),
                    reads > 0 ? (now.readSeconds() - previous.readSeconds()) / reads * 1e6 : null,
                    Math.round(now.errors() - previous.errors()),
                    cpuCores));
            stallWatch.second(second, seconds.get(seconds.size() - 1).records());
            if (warmupEnd == UNDECIDED && (second >= spec.warmupSeconds() || Warmup.steady(seconds))) {
                warmupEnd = second;
                out.printf(
                        Locale.ROOT,
                        "  warm-up over after %d s (%s)%n",
                        second,
                        Warmup.steady(seconds) ? "throughput steady" : "not steady yet: the maximum is reached");
            }
            if (second == warmupEnd) {
                phases.lap("warmup");
                if (!control(job, spec, collector, jobLog, JobProtocol.MEASURE_PATH)) {
                    return;
                }
                resources.windowStarts();
            }
            if (second % PROGRESS_EVERY_SECONDS == 0
                    || (warmupEnd != UNDECIDED && second == warmupEnd + spec.durationSeconds())) {
                Second last = seconds.get(seconds.size() - 1);
                out.printf(
                        Locale.ROOT,
                        "  [%3d/%s s] %,d records/s%s%n",
                        second,
                        warmupEnd == UNDECIDED ? "?" : Integer.toString(warmupEnd + spec.durationSeconds()),
                        Math.round(last.recordsPerSecond()),
                        last.errors() > 0 ? ", " + last.errors() + " errors" : "");
            }
            previous = now;
        }
        if (spec.bounded()) {
            throw new JobFailure(
                    "the bounded run of " + spec.recordsPerGenerator() + " records per generator did not finish within "
                            + (warmupEnd + spec.durationSeconds()) + " s (raise --duration)");
        }
        phases.lap("measured");
        resources.windowEnds();
        control(job, spec, collector, jobLog, JobProtocol.STOP_PATH);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(stopTimeoutSeconds);
        while (!over(job, collector)) {
            if (System.nanoTime() > deadline) {
                throw new JobFailure("the job did not stop within " + stopTimeoutSeconds + " s after the stop request");
            }
            Thread.sleep(20);
        }
    }

    /** How the run recovered from its injected fault (the runner's own on the database, or the job's), or null without one. */
    private static RunDocument.FaultRecovery faultRecovery(
            List<Second> seconds, JobReport report, DatabaseFault databaseFault) {
        long injected = databaseFault.injectedAtEpochMillis() > 0
                ? databaseFault.injectedAtEpochMillis()
                : report == null ? 0 : report.faultInjectedAtEpochMillis();
        return injected == 0 ? null : FaultRecoveries.of(seconds, injected);
    }

    /** Why an unbounded run that ended as planned has no numbers to show, or null: it is never "ok". */
    static String measuredNothing(List<Second> seconds) {
        List<Second> measured = seconds.stream().filter(s -> !s.warmup()).toList();
        if (measured.isEmpty()) {
            return "the run measured nothing: it ended before its first measured second";
        }
        if (measured.stream().mapToLong(Second::records).sum() == 0) {
            return "the run measured nothing: no record was processed in its " + measured.size() + " measured seconds";
        }
        return null;
    }

    /** A worker that failed the run or stopped reporting ends the run at once. */
    private static void requireWorkersAlive(ExperimentSpec spec, JobCollector collector) throws JobFailure {
        Optional<String> failure = collector.failure();
        if (failure.isPresent()) {
            throw new JobFailure("the " + spec.engine() + " job failed: " + failure.get());
        }
        List<String> silent = collector.silentWorkers(WORKER_SILENCE);
        if (!silent.isEmpty()) {
            throw new JobFailure("the job's worker " + String.join(", ", silent) + " stopped reporting for "
                    + WORKER_SILENCE.toSeconds() + " s");
        }
    }

    /**
     * The first snapshot with processed records; null if a bounded job already ended. On YARN, an
     * application that fails before its first record ends the wait at once: Apex's submitting JVM,
     * the job's main, outlives an ApplicationMaster that died.
     */
    private MetricsScraper.Snapshot awaitFirstRecords(
            JobLauncher.Job job, ExperimentSpec spec, JobCollector collector, Path jobLog)
            throws InterruptedException, JobFailure {
        long deadline = System.nanoTime() + startupTimeoutSeconds * SECOND;
        long nextApplicationCheck = System.nanoTime();
        boolean started = false;
        while (System.nanoTime() < deadline) {
            if (System.nanoTime() >= nextApplicationCheck) {
                nextApplicationCheck = System.nanoTime() + APPLICATION_CHECK_INTERVAL.toNanos();
                if (job.failedOnCluster()) {
                    throw new JobFailure("the " + spec.engine() + " job ended before any record was processed"
                            + job.describe() + " (see " + jobLog + ")");
                }
            }
            if (!job.process().isAlive()) {
                if (spec.bounded() && job.process().exitValue() == 0) {
                    return null;
                }
                throw new JobFailure("the " + spec.engine() + " job " + describeEnd(job, jobLog, collector.failure())
                        + " before any record was processed");
            }
            requireWorkersAlive(spec, collector);
            try {
                if (!started) {
                    collector.control(JobProtocol.START_PATH);
                    started = !collector.endpoints().isEmpty();
                }
                MetricsScraper.Snapshot snapshot = collector.scrape();
                if (snapshot.records() + snapshot.errors() > 0) {
                    return snapshot;
                }
            } catch (IOException notUpYet) {
                // the job JVM is still starting its endpoint
            }
            Thread.sleep(100);
        }
        throw new JobFailure("no record was processed within " + startupTimeoutSeconds
                + " s of the database being ready (" + (started ? "" : "the job's endpoint never answered; ")
                + "see " + jobLog + ")");
    }

    /**
     * The next snapshot; null if a bounded job ended by itself (its endpoint closes just before its
     * JVM exits). A worker too busy to answer in time (its JVM starved of CPU or paused) is asked
     * again until it has been silent for {@link #WORKER_SILENCE}: its sample comes late, with the
     * longer interval it covers, instead of failing a run that is still going.
     */
    private MetricsScraper.Snapshot scrape(
            JobLauncher.Job job, ExperimentSpec spec, JobCollector collector, Path jobLog)
            throws JobFailure, InterruptedException {
        long giveUp = System.nanoTime() + WORKER_SILENCE.toNanos();
        while (true) {
            try {
                return collector.scrape();
            } catch (HttpTimeoutException busy) {
                if (System.nanoTime() > giveUp || !job.process().isAlive()) {
                    throw new JobFailure("the job's metrics endpoint did not answer for " + WORKER_SILENCE.toSeconds()
                            + " s: " + busy + job.describe());
                }
                requireWorkersAlive(spec, collector);
                out.println("  the job's metrics endpoint did not answer in time; asking again");
            } catch (IOException e) {
                if (endedByItself(job, spec, collector)) {
                    return null;
                }
                requireJobAlive(job, spec, collector, jobLog);
                throw new JobFailure("the job's metrics endpoint stopped answering: " + e + job.describe());
            }
        }
    }

    /** Posts a control request; false if a bounded job ended by itself before it could take it. */
    private boolean control(JobLauncher.Job job, ExperimentSpec spec, JobCollector collector, Path jobLog, String path)
            throws JobFailure, InterruptedException {
        try {
            collector.control(path);
            return true;
        } catch (IOException e) {
            if (endedByItself(job, spec, collector)) {
                return false;
            }
            requireJobAlive(job, spec, collector, jobLog);
            throw new JobFailure("the job did not accept " + path + ": " + e);
        }
    }

    /** A job whose endpoint closed: if its JVM ended (killed, crashed) within a moment, how it ended is the cause. */
    private static void requireJobAlive(JobLauncher.Job job, ExperimentSpec spec, JobCollector collector, Path jobLog)
            throws JobFailure, InterruptedException {
        if (job.process().waitFor(DEATH_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new JobFailure("the " + spec.engine() + " job " + describeEnd(job, jobLog, collector.failure()));
        }
    }

    private boolean endedByItself(JobLauncher.Job job, ExperimentSpec spec, JobCollector collector)
            throws InterruptedException {
        return spec.bounded()
                && awaitOver(job, collector, System.nanoTime() + TimeUnit.SECONDS.toNanos(stopTimeoutSeconds));
    }

    /** Whether the job is over: its process ended, or every worker sent its final status and the rest is ended, not awaited. */
    private static boolean over(JobLauncher.Job job, JobCollector collector) {
        return !job.process().isAlive() || (job.overWhenWorkersAreDone() && collector.allFinal());
    }

    /** Waits until the job is over or {@code deadlineNanos} passes; whether it is over. */
    private static boolean awaitOver(JobLauncher.Job job, JobCollector collector, long deadlineNanos)
            throws InterruptedException {
        while (!over(job, collector)) {
            long wait = Math.min(deadlineNanos - System.nanoTime(), OVER_POLL_NANOS);
            if (wait <= 0) {
                return false;
            }
            job.process().waitFor(wait, TimeUnit.NANOSECONDS);
        }
        return true;
    }

    /**
     * Where a run's wall time went, phase by phase in seconds: reset, prefill, settle (the
     * database writing out the prefill, the row count, the spec), jobStart (job JVM launch until
     * the first processed record), warmup, measured, stop (stop request until the job is over and ended),
     * verify. A phase a run did not reach is missing.
     */
    static final class Phases {
        private final Map<String, Double> seconds = new LinkedHashMap<>();
        private long last = System.nanoTime();

        void lap(String phase) {
            long now = System.nanoTime();
            seconds.merge(phase, (now - last) / 1e9, Double::sum);
            last = now;
        }

        Map<String, Double> seconds() {
            return Collections.unmodifiableMap(new LinkedHashMap<>(seconds));
        }
    }

    /** The job did not run to its planned end. */
    public static final class JobFailure extends Exception {
        private static final long serialVersionUID = 1L;

        public JobFailure(String message) {
            super(message);
        }
    }
}
