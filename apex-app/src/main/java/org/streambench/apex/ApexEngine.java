package org.streambench.apex;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Guarantee;
import org.streambench.operators.JobMain;
import org.streambench.operators.engine.EngineProvider;
import org.streambench.operators.engine.Settings;
import org.streambench.operators.engine.YarnJob;

/** Apache Apex, as the runner sees it: {@link ApexJob} in local mode, or on YARN by Apex's own client. */
public final class ApexEngine implements EngineProvider {

    static final String MODULE = "apex-app";
    private static final int MASTER_MEMORY_MB = 512;

    /** Apex's streaming window, its default (this class loads no Apex class: the runner reads it without them). */
    static final int WINDOW_MILLIS = 500;

    /**
     * How often Apex deploys a failed processing operator again before it shuts the application
     * down ({@code RECOVERY_ATTEMPTS}, unlimited by default): as many as Flink's restarts.
     */
    static final int RECOVERY_ATTEMPTS = 3;

    /** The streaming windows between two checkpoints that make the spec's checkpoint interval (at least 1). */
    static int checkpointWindows(ExperimentSpec spec) {
        long windows = (spec.checkpointIntervalMillis() + WINDOW_MILLIS - 1) / WINDOW_MILLIS;
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, windows));
    }

    /** JDK 17 flags: without them no record flows (netlet's buffer server and Kryo/reflectasm fail). */
    private static final List<String> JVM_FLAGS = List.of(
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED");

    @Override
    public String name() {
        return "apex";
    }

    @Override
    public int order() {
        return 30;
    }

    @Override
    public boolean inStudy() {
        return true;
    }

    @Override
    public String module() {
        return MODULE;
    }

    @Override
    public String mainClass() {
        return "org.streambench.apex.ApexJob";
    }

    @Override
    public List<String> jvmFlags() {
        return JVM_FLAGS;
    }

    @Override
    public Map<String, String> defaultSettings() {
        return Map.of("streamLocality", "none", "maxInFlight", "10000", "heartbeatTimeoutMillis", "0");
    }

    @Override
    public Set<Guarantee> guarantees() {
        return EnumSet.allOf(Guarantee.class);
    }

    @Override
    public boolean injectsFaults() {
        return true;
    }

    /**
     * Exactly-once on YARN: Apex's application master deploys a failed processing operator again in
     * a new container, which it gets from YARN, after it has ended the old one (the worker there
     * tells the runner, which takes its silence for the recovery: {@code endedByEngineAtEpochMillis}).
     * Not at-least-once yet: its job ends when the windows are processed through the generators'
     * last ({@code WindowProgress}), which only a job in one JVM sees; on YARN it would end by the
     * counts, which the replayed records fill before the replay is over, and a stop during the
     * replay lost updates (YarnTest, 2026-12-01: 28 records not applied, 973 keys wrong).
     */
    @Override
    public boolean recoversOnYarn(Guarantee guarantee) {
        return guarantee == Guarantee.EXACTLY_ONCE;
    }

    /**
     * A container killed: YARN tells Apex's application master, which deploys the operators it held
     * again in a new container from their last checkpoint, the generator's position among them if it
     * was there, and has the buffer server replay the windows since.
     */
    @Override
    public boolean recoversAKilledWorker() {
        return true;
    }

    /**
     * Recovery redeploys the failed processing operator only, and the buffer server replays its
     * windows: exactly-once skips a window committed before, so a replayed window must hold the
     * same records, and at-least-once ends by window. A stream inside one container would deploy
     * the generator again too, and its windows would be cut anew (a generator deployed again fails the run).
     */
    @Override
    public void checkGuarantee(Guarantee guarantee, Map<String, String> settings) {
        if (guarantee.recovers() && !settings.get("streamLocality").equals("none")) {
            throw new IllegalArgumentException("--guarantee " + guarantee.cliName() + " on apex needs streamLocality"
                    + " none: with " + settings.get("streamLocality") + " a failed processing operator takes the"
                    + " generator with it, whose replayed windows would hold other records");
        }
    }

    /** Exactly-once commits with each streaming window, whatever the checkpoint interval. */
    @Override
    public long exactlyOnceCommitMillis(ExperimentSpec spec) {
        return WINDOW_MILLIS;
    }

    /**
     * Apex's own recovery: operators checkpointed every {@code CHECKPOINT_WINDOW_COUNT} streaming
     * windows, a failed processing operator deployed again from its last checkpoint and the windows
     * since replayed to it by the buffer server. Exactly-once commits each window's writes with its
     * window id, as Malhar's transactionable output operators do (ApexJob), which takes no attribute
     * of Apex's. A processing operator that failed more than {@code RECOVERY_ATTEMPTS} times ends
     * the application. Without a guarantee a redeployment fails the run, and no attribute changes.
     */
    @Override
    public Map<String, String> guaranteeSettings(ExperimentSpec spec) {
        if (!spec.guarantee().recovers()) {
            return Map.of();
        }
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("STREAMING_WINDOW_SIZE_MILLIS", Integer.toString(WINDOW_MILLIS));
        settings.put("CHECKPOINT_WINDOW_COUNT", Integer.toString(checkpointWindows(spec)));
        settings.put("PROCESSING_MODE", "AT_LEAST_ONCE");
        settings.put("RECOVERY_ATTEMPTS", Integer.toString(RECOVERY_ATTEMPTS));
        return settings;
    }

    @Override
    public void checkSettings(Map<String, String> settings) {
        Settings.requirePositiveInt(settings, "maxInFlight");
        Settings.requireNonNegativeInt(settings, "heartbeatTimeoutMillis");
        Settings.requireOneOf(settings, "streamLocality", List.of("none", "container_local", "thread_local"));
    }

    /**
     * The command of Apex's submitting JVM (ApexOnYarn), which is also the job's main and
     * first worker: Apex builds the DAG where it is launched. It runs on the Hadoop 3.4 client
     * instead of Apex's Hadoop 2.6 and ships the job's jars with the application. Apex's containers
     * put their jars on the classpath in no set order ({@code ./*}) beside the cluster's Hadoop,
     * where the Hadoop classes that the HBase client's jar carries would shadow the cluster's; the
     * build's yarn-lib/ has an HBase client without them, which goes instead.
     */
    @Override
    public List<String> yarnSubmitCommand(YarnJob job) throws IOException {
        List<String> launcherJars = job.yarnClasspathOf(MODULE);
        String appJar = job.moduleJar(MODULE).toString();
        List<String> jobJars = Stream.concat(Stream.of(appJar), job.jarsOf(MODULE).stream())
                .filter(jar -> !fileName(jar).startsWith("hadoop-"))
                .toList();
        // the operators, the connectors and what they need, beside the Apex jars Apex ships itself, a Guava that both
        // Apex's engine and the cluster's Hadoop 3 can use and an HBase client without Hadoop's classes (both from
        // the build's yarn-lib/, instead of Apex's Guava 11 and the HBase client the connector depends on); not
        // the rest of Apex's dependencies (Hadoop 2.6's Jetty 6 and 8, Jersey 1), which break the cluster's Hadoop
        Set<String> jobDependencies = Stream.of("operators", "db-connectors/all")
                .flatMap(module -> job.jarsOf(module).stream())
                .map(ApexEngine::fileName)
                .collect(Collectors.toSet());
        List<String> shipped = jobJars.stream()
                .filter(jar -> jar.equals(appJar)
                        || jar.contains("/org/streambench/")
                        || job.inCheckout(jar)
                        || jobDependencies.contains(fileName(jar)))
                .filter(jar -> !fileName(jar).matches("(hbase-shaded-client|guava)-.*"))
                .collect(Collectors.toCollection(ArrayList::new));
        try (Stream<Path> yarnLib = Files.list(job.moduleFile(MODULE, "target/yarn-lib"))) {
            yarnLib.map(Path::toString).forEach(shipped::add);
        }
        Path dfsRoot = Files.createDirectories(job.settingsFile().resolveSibling("apex"));
        Files.setPosixFilePermissions(dfsRoot, PosixFilePermissions.fromString("rwx------"));
        Properties settings = new Properties();
        settings.setProperty("name", job.applicationName());
        settings.setProperty("tag", job.tag());
        settings.setProperty("libraryJars", String.join(",", shipped));
        settings.setProperty("dfsRoot", dfsRoot.toString());
        // Apex gives its containers their own temporary folder itself
        settings.setProperty(
                "containerJvmOptions",
                // not distinct: a flag and its value may be two elements ("--add-opens", "java.base/...")
                Stream.concat(jvmFlags().stream(), job.connectorJvmFlags().stream())
                        .collect(Collectors.joining(" ")));
        settings.setProperty("containerMemoryMb", Long.toString(job.containerMemoryMegabytes()));
        settings.setProperty("masterMemoryMb", Integer.toString(MASTER_MEMORY_MB));
        job.requested(settings, "containerMemoryMb", "masterMemoryMb");
        if (job.spec().password() != null) {
            settings.setProperty("password", job.spec().password());
        }
        job.writePrivately(settings, "Apex settings of a streambench run on YARN");
        List<String> command = job.submitterJvm(
                jvmFlags(),
                String.join(File.pathSeparator, launcherJars)
                        + File.pathSeparator
                        + String.join(File.pathSeparator, jobJars));
        ProcessHandle runner = ProcessHandle.current();
        command.addAll(List.of(
                "-Dstreambench.apex.yarnSettings=" + job.settingsFile(),
                "-D" + JobMain.AWAIT_START_PROPERTY + "=true",
                // the launcher is the job's main: it ends (killing the application, deleting the run's temporary
                // folder, which is its own) as soon as its runner is gone
                "-D" + JobMain.RUNNER_PID_PROPERTY + "=" + runner.pid(),
                "-D" + JobMain.OWN_TMP_PROPERTY + "=true",
                "-D" + JobMain.RUNNER_START_PROPERTY + "="
                        + runner.info()
                                .startInstant()
                                .map(start -> Long.toString(start.toEpochMilli()))
                                .orElse(""),
                "org.streambench.apex.ApexOnYarn",
                job.specFile().toString()));
        return command;
    }

    private static String fileName(String path) {
        return Path.of(path).getFileName().toString();
    }
}
