package org.streambench.runner.yarn;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.JobMain;
import org.streambench.runner.Home;
import org.streambench.runner.UserError;

/**
 * How the runner submits an engine's job to YARN. So far Spark Streaming, in cluster mode: the
 * driver (the job's main and its first worker) runs in the ApplicationMaster's container, and
 * two executors in containers of their own, so generator and processing instances may run in
 * different JVMs, each with its worker reporting to the runner's collector. The engine's jars
 * are taken from where they are (spark.yarn.jars with local: paths), not uploaded per run.
 */
public final class YarnSubmission {

    private static final String SPARK_MODULE = "spark-job";
    private static final int EXECUTORS = 2;

    private final YarnCluster cluster;
    private final PrintWriter out;
    /** Marks the application, so the runner finds it to record and to kill it. */
    private final String tag = "streambench-" + ProcessHandle.current().pid() + "-" + System.nanoTime();

    /** One submission to {@code cluster}; {@code out} takes its warnings. */
    public YarnSubmission(YarnCluster cluster, PrintWriter out) {
        this.cluster = cluster;
        this.out = out;
    }

    /** Engines that can be submitted so far. */
    public static boolean supports(String engine) {
        return engine.equals("spark");
    }

    /**
     * The command of the submitting JVM, which waits until the application ends. The Spark
     * settings go to {@code settingsFile} (readable by its owner only: it may carry the database
     * password for the containers' environment), in the run's temporary folder, which is also the
     * submitter's.
     */
    private List<String> sparkCommand(
            ExperimentSpec spec, Path specFile, Path settingsFile, List<String> jvmFlags, String containerMemory)
            throws IOException {
        Path yarnConf = cluster.conf();
        List<String> classpath = Arrays.stream(Home.classpathOf(SPARK_MODULE).split(File.pathSeparator))
                .filter(entry -> entry.endsWith(".jar"))
                .toList();
        Path appJar = moduleJar();
        int slots = spec.generatorParallelism() + spec.parallelism();
        String javaOptions = String.join(" ", jvmFlags);
        Properties settings = new Properties();
        settings.setProperty(
                "spark.yarn.jars",
                Stream.concat(classpath.stream(), Stream.of(appJar.toString()))
                        .map(jar -> "local:" + jar)
                        .collect(Collectors.joining(",")));
        settings.setProperty("spark.yarn.populateHadoopClasspath", "false");
        settings.setProperty("spark.yarn.maxAppAttempts", "1");
        settings.setProperty("spark.yarn.tags", tag);
        settings.setProperty("spark.yarn.submit.waitAppCompletion", "true");
        settings.setProperty("spark.executor.instances", Integer.toString(EXECUTORS));
        // each receiver holds a core for the whole run: every executor gets enough for all receivers and partitions
        settings.setProperty("spark.executor.cores", Integer.toString(slots));
        // a batch's tasks must not wait (3 s by default) for a core on the executor whose receiver holds the data
        settings.setProperty("spark.locality.wait", "0s");
        settings.setProperty("spark.executor.memory", containerMemory);
        settings.setProperty("spark.driver.memory", containerMemory);
        settings.setProperty(
                "spark.driver.extraJavaOptions", javaOptions + " -D" + JobMain.AWAIT_START_PROPERTY + "=true");
        settings.setProperty("spark.executor.extraJavaOptions", javaOptions);
        if (spec.password() != null) {
            settings.setProperty("spark.yarn.appMasterEnv." + ExperimentSpec.PASSWORD_ENVIRONMENT, spec.password());
            settings.setProperty("spark.executorEnv." + ExperimentSpec.PASSWORD_ENVIRONMENT, spec.password());
        }
        Files.deleteIfExists(settingsFile);
        Files.createFile(
                settingsFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (Writer out = Files.newBufferedWriter(settingsFile, StandardCharsets.UTF_8)) {
            settings.store(out, "spark-submit settings of a streambench run");
        }
        List<String> command = new ArrayList<>(List.of(
                Home.javaExecutable(),
                "-Xmx512m",
                // the submitter stages the application's configuration in a temporary folder that it
                // leaves behind when it is killed: it goes to the run's own, which the runner deletes
                "-Djava.io.tmpdir=" + settingsFile.getParent(),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        command.addAll(jvmFlags);
        command.addAll(List.of(
                "-cp",
                // the Hadoop client reads the cluster's addresses from its classpath, as spark-submit's script arranges
                yarnConf + File.pathSeparator + Home.classpathOf(SPARK_MODULE),
                "org.apache.spark.deploy.SparkSubmit",
                "--master",
                "yarn",
                "--deploy-mode",
                "cluster",
                "--name",
                "streambench spark " + spec.database() + " " + spec.pattern().cliName() + " " + spec.blobBytes() + "B",
                "--class",
                "org.streambench.spark.SparkJob",
                "--properties-file",
                settingsFile.toString(),
                "--files",
                specFile.toString(),
                appJar.toString(),
                specFile.getFileName().toString()));
        return command;
    }

    private static Path moduleJar() throws IOException {
        Path target = Home.root().resolve(SPARK_MODULE).resolve("target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(file -> file.getFileName().toString().matches(SPARK_MODULE + "-.*\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new UserError("the " + SPARK_MODULE
                            + " jar is not built; run ./bench build (or mvn -DskipTests package)"));
        }
    }

    /**
     * Starts the submitting JVM of the Spark job, its output to {@code log}; {@code jobTmp} is the
     * run's temporary folder, deleted by the runner when the job ends.
     */
    public Process startSpark(
            ExperimentSpec spec,
            Path specFile,
            Path jobTmp,
            List<String> jvmFlags,
            Map<String, String> environment,
            String containerMemory,
            Path log)
            throws IOException {
        List<String> command =
                sparkCommand(spec, specFile, jobTmp.resolve("spark-submit.properties"), jvmFlags, containerMemory);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        builder.environment().put("HADOOP_CONF_DIR", cluster.conf().toString());
        builder.environment().put("YARN_CONF_DIR", cluster.conf().toString());
        builder.environment().remove(ExperimentSpec.PASSWORD_ENVIRONMENT);
        return builder.start();
    }

    /** The application, once YARN has it. */
    public Optional<String> applicationId() {
        try {
            return cluster.applicationWithTag(tag);
        } catch (RuntimeException unreachable) {
            out.println("warning: could not ask YARN for the job's application: " + unreachable.getMessage());
            return Optional.empty();
        }
    }

    /** "; YARN application ID STATE (diagnostics)", or nothing while YARN does not know it or cannot be asked. */
    public String describe() {
        Optional<String> application = applicationId();
        if (application.isEmpty()) {
            return "";
        }
        try {
            return "; YARN application " + application.get() + " " + cluster.describeApplication(application.get());
        } catch (RuntimeException unreachable) {
            return "";
        }
    }

    /** Kills the application unless it has ended; says so on {@code out}. */
    public void kill() {
        applicationId().ifPresent(application -> {
            try {
                if (cluster.kill(application)) {
                    out.println("killed the YARN application " + application);
                }
            } catch (IOException | RuntimeException e) {
                out.println("warning: could not kill the YARN application " + application + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }
}
