package org.streambench.flink;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Guarantee;
import org.streambench.operators.JobMain;
import org.streambench.operators.engine.EngineProvider;
import org.streambench.operators.engine.Settings;
import org.streambench.operators.engine.YarnJob;

/** Apache Flink, as the runner sees it: the job JVM runs {@link FlinkJob} in a local MiniCluster, or on YARN. */
public final class FlinkEngine implements EngineProvider {

    static final String MODULE = "flink-job";
    /** Restarts from a checkpoint before a run with a guarantee fails. */
    private static final int RESTART_ATTEMPTS = 3;

    @Override
    public String name() {
        return "flink";
    }

    @Override
    public int order() {
        return 10;
    }

    @Override
    public boolean inStudy() {
        return true;
    }

    @Override
    public String module() {
        return MODULE;
    }

    /**
     * How long a network buffer between the generator and the processing operator may wait to fill
     * before it is sent (Flink's own default, 100 ms): at a rate that fills no buffer sooner, it is a
     * floor under the end-to-end latency. 0 sends every record at once.
     */
    @Override
    public Map<String, String> defaultSettings() {
        return Map.of(FlinkJob.BUFFER_TIMEOUT, "100");
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
     * A TaskManager killed: Flink's ResourceManager gets a new container from YARN, and the job
     * restarts from its last checkpoint, the sources' positions in it (docs/guarantees.md).
     */
    @Override
    public boolean recoversAKilledWorker() {
        return true;
    }

    /**
     * Both guarantees: Flink restarts the job in its TaskManagers' containers from the last
     * checkpoint, the source possibly on another TaskManager than before; the audits on the suite's
     * YARN found nothing lost, and nothing applied twice with exactly-once (docs/guarantees.md).
     */
    @Override
    public boolean recoversOnYarn(Guarantee guarantee) {
        return guarantee.recovers();
    }

    /**
     * Flink's own recovery for a guarantee: checkpoints every interval (barriers aligned for
     * exactly-once, not for at-least-once) and a restart from the last one; without a guarantee a
     * failed task fails the job, as a restart would process its records a second time.
     */
    @Override
    public Map<String, String> guaranteeSettings(ExperimentSpec spec) {
        Map<String, String> settings = new LinkedHashMap<>();
        if (!spec.guarantee().recovers()) {
            settings.put("restart-strategy.type", "none");
            return settings;
        }
        settings.put("execution.checkpointing.interval", spec.checkpointIntervalMillis() + " ms");
        // exactly-once's state holds a checkpoint's writes, more than the job manager's 5 MB limit at a high rate
        settings.put("state.checkpoint-storage", "filesystem");
        settings.put(
                "execution.checkpointing.mode",
                spec.guarantee() == Guarantee.EXACTLY_ONCE ? "EXACTLY_ONCE" : "AT_LEAST_ONCE");
        settings.put("restart-strategy.type", "fixed-delay");
        settings.put("restart-strategy.fixed-delay.attempts", Integer.toString(RESTART_ATTEMPTS));
        settings.put("restart-strategy.fixed-delay.delay", "1 s");
        return settings;
    }

    @Override
    public Optional<LatencyFloor> latencyFloor(Map<String, String> settings) {
        long millis = Long.parseLong(settings.get(FlinkJob.BUFFER_TIMEOUT).trim());
        return millis == 0
                ? Optional.empty()
                : Optional.of(new LatencyFloor(
                        millis,
                        FlinkJob.BUFFER_TIMEOUT,
                        "a network buffer between the generator and the operator waits that long to fill",
                        false,
                        0));
    }

    @Override
    public void checkSettings(Map<String, String> settings) {
        Settings.requireNonNegativeInt(settings, FlinkJob.BUFFER_TIMEOUT);
    }

    @Override
    public String mainClass() {
        return "org.streambench.flink.FlinkJob";
    }

    /**
     * The command of Flink's submitting JVM (YarnLauncher), which deploys the job in
     * application mode and waits until the application ends. YARN's containers get Flink's and the
     * job's jars as shipped files (Flink accepts provided, not uploaded, jars only from a
     * distributed file system) and the cluster's own Hadoop; the Flink YARN jar stands in for the
     * flink-dist jar, which Maven Central does not have.
     */
    @Override
    public List<String> yarnSubmitCommand(YarnJob job) throws IOException {
        ExperimentSpec spec = job.spec();
        List<String> launcherJars = job.yarnClasspathOf(MODULE);
        String distJar = launcherJars.stream()
                .filter(jar -> Path.of(jar).getFileName().toString().startsWith("flink-yarn-"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no flink-yarn jar in the " + MODULE + " YARN classpath"));
        // the Hadoop client goes too: Flink puts shipped jars in alphabetical order before the cluster's classpath,
        // and the HBase client's jar carries Hadoop 2 classes, which would otherwise win
        List<String> shipped = new ArrayList<>(job.jarsOf(MODULE));
        launcherJars.stream().filter(jar -> !jar.equals(distJar)).forEach(shipped::add);
        shipped.add(job.specFile().toString());
        String javaOptions = String.join(
                " ",
                Stream.concat(
                                Stream.of(job.jdk17Opens(), jvmFlags(), job.connectorJvmFlags())
                                        .flatMap(List::stream),
                                // the container's own temporary folder (Spark's choice too): the JobManager's web
                                // files otherwise stay in /tmp when the job's JVM ends without Flink's shutdown
                                Stream.of(
                                        "-Djava.io.tmpdir={{PWD}}/tmp",
                                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"))
                        .toList());
        Properties settings = new Properties();
        settings.setProperty("execution.target", "yarn-application");
        // the job's main blocks in execute() until the job ends, as it does locally
        settings.setProperty("execution.attached", "true");
        settings.setProperty("$internal.application.main", mainClass());
        settings.setProperty(
                "$internal.application.program-args",
                job.specFile().getFileName().toString());
        settings.setProperty("pipeline.jars", job.moduleJar(MODULE).toString());
        settings.setProperty("yarn.flink-dist-jar", distJar);
        settings.setProperty("yarn.ship-files", String.join(";", shipped));
        // the uploaded jars go to the run's temporary folder, which the runner deletes however the run ends
        settings.setProperty(
                "yarn.staging-directory", job.settingsFile().getParent().toString());
        settings.setProperty("yarn.application.name", job.applicationName());
        settings.setProperty("yarn.tags", job.tag());
        settings.setProperty("yarn.application-attempts", "1");
        settings.setProperty("jobmanager.memory.process.size", "1024m");
        settings.setProperty("taskmanager.memory.task.heap.size", job.containerMemory());
        // streaming operators without RocksDB use no managed memory
        settings.setProperty("taskmanager.memory.managed.size", "0m");
        // one slot per TaskManager: a parallelism of 2 runs in two TaskManagers, each a worker of the job
        settings.setProperty("taskmanager.numberOfTaskSlots", "1");
        job.requested(
                settings,
                "jobmanager.memory.process.size",
                "taskmanager.memory.task.heap.size",
                "taskmanager.numberOfTaskSlots");
        // a TaskManager that died (--fault kill-worker, a lost node) refuses the next heartbeat's connection:
        // it is marked lost at once, before the job's restarts meant for a failed task deploy to it in
        // vain (by default two refused heartbeats 10 s apart; three restarts a second apart gave up first)
        settings.setProperty("heartbeat.interval", "1000");
        settings.setProperty("heartbeat.rpc-failure-threshold", "1");
        settings.setProperty("env.java.opts.all", javaOptions);
        settings.setProperty("env.java.opts.jobmanager", "-D" + JobMain.AWAIT_START_PROPERTY + "=true");
        if (spec.password() != null) {
            settings.setProperty("containerized.master.env." + ExperimentSpec.PASSWORD_ENVIRONMENT, spec.password());
            settings.setProperty(
                    "containerized.taskmanager.env." + ExperimentSpec.PASSWORD_ENVIRONMENT, spec.password());
        }
        job.writePrivately(settings, "Flink settings of a streambench run on YARN");
        List<String> command = job.submitterJvm(
                jvmFlags(),
                String.join(File.pathSeparator, launcherJars) + File.pathSeparator + job.classpathOf(MODULE));
        command.addAll(
                List.of("org.streambench.flink.YarnLauncher", job.settingsFile().toString()));
        return command;
    }
}
