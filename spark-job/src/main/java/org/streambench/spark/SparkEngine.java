package org.streambench.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

/** Apache Spark Streaming (DStreams), as the runner sees it: {@link SparkJob} in local[N], or on YARN in cluster mode. */
public final class SparkEngine implements EngineProvider {

    static final String MODULE = "spark-job";
    private static final int EXECUTORS = 2;
    /** Where a YARN container of Spark's finds the jars Spark uploaded, relative to its working folder. */
    private static final String SPARK_LIBS = "__spark_libs__/";

    /** JDK 17 flags: without them Spark's reflection into the JDK fails and no record flows. */
    private static final List<String> JVM_FLAGS = List.of(
            "-XX:+IgnoreUnrecognizedVMOptions",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
            "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "-Djdk.reflect.useDirectMethodHandle=false");

    @Override
    public String name() {
        return "spark";
    }

    @Override
    public int order() {
        return 20;
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
        return "org.streambench.spark.SparkJob";
    }

    @Override
    public List<String> jvmFlags() {
        return JVM_FLAGS;
    }

    @Override
    public Map<String, String> environment() {
        return Map.of("SPARK_LOCAL_IP", "127.0.0.1");
    }

    @Override
    public Map<String, String> defaultSettings() {
        return Map.of("batchIntervalMillis", "1000");
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
     * Both guarantees: a failed task runs again in an executor's container on the micro-batch's
     * blocks, which the receivers' executors hold; the driver and the job's counts outlive it. The
     * audits on the suite's YARN found nothing lost, and nothing applied twice with exactly-once
     * (docs/guarantees.md).
     */
    @Override
    public boolean recoversOnYarn(Guarantee guarantee) {
        return guarantee.recovers();
    }

    /**
     * Spark's own recovery from a failed task: it runs the task again on the batch's stored blocks
     * (4 attempts, a cluster's default); without a guarantee a failed task fails the job, as its retry
     * would write its partition's records a second time. Exactly-once commits each partition's
     * micro-batch with its batch time (SparkJob), which takes no setting of Spark's. There is no
     * checkpoint to time: a micro-batch is the unit.
     */
    @Override
    public Map<String, String> guaranteeSettings(ExperimentSpec spec) {
        return Map.of("spark.task.maxFailures", Integer.toString(taskAttempts(spec)));
    }

    /** Exactly-once commits with each micro-batch, whatever the checkpoint interval. */
    @Override
    public long exactlyOnceCommitMillis(ExperimentSpec spec) {
        return Long.parseLong(spec.engineSetting("batchIntervalMillis", "1000").trim());
    }

    /** How often Spark runs a task before the job fails: once without a guarantee, a cluster's default 4 with one. */
    static int taskAttempts(ExperimentSpec spec) {
        return spec.guarantee().recovers() ? 4 : 1;
    }

    @Override
    public Optional<LatencyFloor> latencyFloor(Map<String, String> settings) {
        return Optional.of(new LatencyFloor(
                Long.parseLong(settings.get("batchIntervalMillis").trim()),
                "batchIntervalMillis",
                "a record waits for its micro-batch",
                true,
                1));
    }

    @Override
    public void checkSettings(Map<String, String> settings) {
        Settings.requirePositiveInt(settings, "batchIntervalMillis");
    }

    /** The command of Spark's submitting JVM (SparkSubmit, cluster mode), which waits until the application ends. */
    @Override
    public List<String> yarnSubmitCommand(YarnJob job) throws IOException {
        ExperimentSpec spec = job.spec();
        Path settingsFile = job.settingsFile();
        Path appJar = job.moduleJar(MODULE);
        int slots = spec.generatorParallelism() + spec.parallelism();
        String javaOptions = Stream.concat(jvmFlags().stream(), job.connectorJvmFlags().stream())
                .collect(Collectors.joining(" "));
        // on a cluster whose file system is this machine's, the containers read the jars where they are
        // ("local:"); on one with a distributed file system (HDFS), Spark uploads them to its staging folder there
        String jarScheme = job.clusterFileSystemIsLocal() ? "local:" : "file:";
        Properties settings = new Properties();
        settings.setProperty(
                "spark.yarn.jars",
                Stream.concat(job.jarsOf(MODULE).stream(), Stream.of(appJar.toString()))
                        .map(jar -> jarScheme + jar)
                        .collect(Collectors.joining(",")));
        settings.setProperty("spark.yarn.populateHadoopClasspath", "false");
        settings.setProperty("spark.yarn.maxAppAttempts", "1");
        settings.setProperty("spark.yarn.tags", job.tag());
        settings.setProperty("spark.yarn.submit.waitAppCompletion", "true");
        settings.setProperty("spark.executor.instances", Integer.toString(EXECUTORS));
        // each receiver holds a core for the whole run: every executor gets enough for all receivers and partitions
        settings.setProperty("spark.executor.cores", Integer.toString(slots));
        // a batch's tasks must not wait (3 s by default) for a core on the executor whose receiver holds the data
        settings.setProperty("spark.locality.wait", "0s");
        settings.setProperty("spark.executor.memory", job.containerMemory());
        settings.setProperty("spark.driver.memory", job.containerMemory());
        // Spark removes its staging folder (these settings, password included) when its driver shuts down or the
        // application fails, not when a run ends its job: in the run's temporary folder it goes with the run (on a
        // cluster with HDFS, the folder of that path there, which the runner deletes)
        settings.setProperty(
                "spark.yarn.stagingDir",
                job.clusterFileSystemIsLocal()
                        ? settingsFile.getParent().toUri().toString()
                        : settingsFile.getParent().toString());
        if (!job.clusterFileSystemIsLocal()) {
            // uploaded jars are on the containers' classpath in no set order (__spark_libs__/*), where the Hadoop 2
            // classes of the HBase client's jar could shadow Hadoop 3's: the Hadoop jars go first
            String hadoopFirst = job.jarsOf(MODULE).stream()
                    .map(jar -> Path.of(jar).getFileName().toString())
                    .filter(name -> name.startsWith("hadoop-"))
                    .map(name -> SPARK_LIBS + name)
                    .collect(Collectors.joining(":"));
            settings.setProperty("spark.driver.extraClassPath", hadoopFirst);
            settings.setProperty("spark.executor.extraClassPath", hadoopFirst);
        }
        job.requested(
                settings,
                "spark.executor.instances",
                "spark.executor.cores",
                "spark.executor.memory",
                "spark.driver.memory");
        settings.setProperty(
                "spark.driver.extraJavaOptions", javaOptions + " -D" + JobMain.AWAIT_START_PROPERTY + "=true");
        settings.setProperty("spark.executor.extraJavaOptions", javaOptions);
        if (spec.password() != null) {
            settings.setProperty("spark.yarn.appMasterEnv." + ExperimentSpec.PASSWORD_ENVIRONMENT, spec.password());
            settings.setProperty("spark.executorEnv." + ExperimentSpec.PASSWORD_ENVIRONMENT, spec.password());
        }
        job.writePrivately(settings, "spark-submit settings of a streambench run");
        List<String> command = job.submitterJvm(jvmFlags(), job.classpathOf(MODULE));
        command.addAll(List.of(
                "org.apache.spark.deploy.SparkSubmit",
                "--master",
                "yarn",
                "--deploy-mode",
                "cluster",
                "--name",
                job.applicationName(),
                "--class",
                mainClass(),
                "--properties-file",
                settingsFile.toString(),
                "--files",
                job.specFile().toString(),
                appJar.toString(),
                job.specFile().getFileName().toString()));
        return command;
    }
}
