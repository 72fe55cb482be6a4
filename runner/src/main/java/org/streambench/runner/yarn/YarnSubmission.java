package org.streambench.runner.yarn;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.streambench.local.Home;
import org.streambench.local.UserError;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.JobMain;

/**
 * How the runner submits an engine's job to YARN, by a submitting JVM on the engine's own
 * classpath that waits until the application ends. The job's operators run in containers of
 * their own, so generator and processing instances may run in different JVMs, each with its
 * worker reporting to the runner's collector.
 * <ul>
 *   <li>Spark Streaming in cluster mode: the driver in the ApplicationMaster, two executors; the
 *       engine's jars are taken from where they are (spark.yarn.jars with local: paths), not
 *       uploaded per run.
 *   <li>Flink in application mode: the JobManager in the ApplicationMaster, one TaskManager per
 *       slot needed; the jars are shipped per run.
 *   <li>Apex by its own client: the submitting JVM is the job's main (Apex builds the DAG where
 *       it is launched), STRAM (the ApplicationMaster) runs the operators in containers; the jars
 *       are shipped per run.
 * </ul>
 */
public final class YarnSubmission {

    private static final String SPARK_MODULE = "spark-job";
    private static final String FLINK_MODULE = "flink-job";
    private static final String APEX_MODULE = "apex-app";
    private static final int APEX_MASTER_MEMORY_MB = 512;
    private static final int EXECUTORS = 2;

    private final YarnCluster cluster;
    private final PrintWriter out;
    /** Marks the application, so the runner finds it to record and to kill it. */
    private final String tag = "streambench-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    /** YARN's id of the application, once it has one (asked for by the runner's threads). */
    private volatile String applicationId;
    /** What the job asked YARN for, by the engine's own names: containers, their cores and memory. */
    private final Map<String, String> resources = new LinkedHashMap<>();

    /** One submission to {@code cluster}; {@code out} takes its warnings. */
    public YarnSubmission(YarnCluster cluster, PrintWriter out) {
        this.cluster = cluster;
        this.out = out;
    }

    /**
     * The command of Spark's submitting JVM, which waits until the application ends. The settings
     * go to {@code settingsFile}.
     */
    private List<String> sparkCommand(
            ExperimentSpec spec, Path specFile, Path settingsFile, List<String> jvmFlags, String containerMemory)
            throws IOException {
        List<String> classpath = jars(Home.classpathOf(SPARK_MODULE));
        Path appJar = moduleJar(SPARK_MODULE);
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
        if (cluster.defaultFileSystemIsLocal()) {
            // Spark removes its staging folder (these settings, password included) when its driver shuts
            // down or the application fails, not when a run ends its job: in the run's folder it goes with the run
            settings.setProperty(
                    "spark.yarn.stagingDir", settingsFile.getParent().toUri().toString());
        }
        recordResources(
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
        writePrivately(settings, settingsFile, "spark-submit settings of a streambench run");
        List<String> command = submitterJvm(settingsFile.getParent(), jvmFlags, Home.classpathOf(SPARK_MODULE));
        command.addAll(List.of(
                "org.apache.spark.deploy.SparkSubmit",
                "--master",
                "yarn",
                "--deploy-mode",
                "cluster",
                "--name",
                applicationName("spark", spec),
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

    /**
     * The command of Flink's submitting JVM (the flink-job module's YARN launcher), which deploys
     * the job in application mode and waits until the application ends. YARN's containers get
     * Flink's and the job's jars as shipped files (Flink accepts provided, not uploaded, jars only
     * from a distributed file system) and the cluster's own Hadoop; the Flink YARN jar stands in
     * for the flink-dist jar, which Maven Central does not have.
     */
    private List<String> flinkCommand(
            ExperimentSpec spec, Path specFile, Path settingsFile, List<String> jvmFlags, String containerMemory)
            throws IOException {
        Path listing = yarnClasspathListing(FLINK_MODULE);
        List<String> launcherJars = jars(Files.readString(listing).trim());
        String distJar = launcherJars.stream()
                .filter(jar -> Path.of(jar).getFileName().toString().startsWith("flink-yarn-"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no flink-yarn jar in " + listing));
        // the Hadoop client goes too: Flink puts shipped jars in alphabetical order before the cluster's classpath,
        // and the HBase client's jar carries Hadoop 2 classes, which would otherwise win
        List<String> shipped = new ArrayList<>(jars(Home.classpathOf(FLINK_MODULE)));
        launcherJars.stream().filter(jar -> !jar.equals(distJar)).forEach(shipped::add);
        shipped.add(specFile.toString());
        String javaOptions = String.join(
                " ",
                Stream.concat(
                                Stream.concat(LocalYarn.JDK17_OPENS.stream(), jvmFlags.stream()),
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
        settings.setProperty("$internal.application.main", "org.streambench.flink.FlinkJob");
        settings.setProperty(
                "$internal.application.program-args", specFile.getFileName().toString());
        settings.setProperty("pipeline.jars", moduleJar(FLINK_MODULE).toString());
        settings.setProperty("yarn.flink-dist-jar", distJar);
        settings.setProperty("yarn.ship-files", String.join(";", shipped));
        // the uploaded jars go to the run's temporary folder, which the runner deletes however the run ends
        settings.setProperty("yarn.staging-directory", settingsFile.getParent().toString());
        settings.setProperty("yarn.application.name", applicationName("flink", spec));
        settings.setProperty("yarn.tags", tag);
        settings.setProperty("yarn.application-attempts", "1");
        settings.setProperty("jobmanager.memory.process.size", "1024m");
        settings.setProperty("taskmanager.memory.task.heap.size", containerMemory);
        // streaming operators without RocksDB use no managed memory
        settings.setProperty("taskmanager.memory.managed.size", "0m");
        // one slot per TaskManager: a parallelism of 2 runs in two TaskManagers, each a worker of the job
        settings.setProperty("taskmanager.numberOfTaskSlots", "1");
        recordResources(
                settings,
                "jobmanager.memory.process.size",
                "taskmanager.memory.task.heap.size",
                "taskmanager.numberOfTaskSlots");
        settings.setProperty("env.java.opts.all", javaOptions);
        settings.setProperty("env.java.opts.jobmanager", "-D" + JobMain.AWAIT_START_PROPERTY + "=true");
        if (spec.password() != null) {
            settings.setProperty("containerized.master.env." + ExperimentSpec.PASSWORD_ENVIRONMENT, spec.password());
            settings.setProperty(
                    "containerized.taskmanager.env." + ExperimentSpec.PASSWORD_ENVIRONMENT, spec.password());
        }
        writePrivately(settings, settingsFile, "Flink settings of a streambench run on YARN");
        List<String> command = submitterJvm(
                settingsFile.getParent(),
                jvmFlags,
                String.join(File.pathSeparator, launcherJars) + File.pathSeparator + Home.classpathOf(FLINK_MODULE));
        command.addAll(List.of("org.streambench.flink.YarnLauncher", settingsFile.toString()));
        return command;
    }

    /**
     * The command of Apex's submitting JVM, which is also the job's main and first worker: Apex
     * builds the DAG where it is launched. It runs on the Hadoop 3.4 client instead of Apex's
     * Hadoop 2.6 and ships the job's jars with the application. Apex's containers put their jars
     * on the classpath in no set order ({@code ./*}) beside the cluster's Hadoop, where the Hadoop
     * classes that the HBase client's jar carries would shadow the cluster's; the build's
     * yarn-lib/ has an HBase client without them, which goes instead.
     */
    private List<String> apexCommand(
            ExperimentSpec spec, Path specFile, Path settingsFile, List<String> jvmFlags, String containerMemory)
            throws IOException {
        List<String> launcherJars =
                jars(Files.readString(yarnClasspathListing(APEX_MODULE)).trim());
        String appJar = moduleJar(APEX_MODULE).toString();
        List<String> jobJars = Stream.concat(Stream.of(appJar), jars(Home.classpathOf(APEX_MODULE)).stream())
                .filter(jar -> !fileName(jar).startsWith("hadoop-"))
                .toList();
        // the operators, the connectors and what they need, beside the Apex jars Apex ships itself, a Guava that both
        // Apex's engine and the cluster's Hadoop 3 can use and an HBase client without Hadoop's classes (both from
        // the build's yarn-lib/, instead of Apex's Guava 11 and the HBase client the connector depends on); not
        // the rest of Apex's dependencies (Hadoop 2.6's Jetty 6 and 8, Jersey 1), which break the cluster's Hadoop
        Set<String> jobDependencies = Stream.of("operators", "db-connectors/all")
                .flatMap(module -> jars(Home.classpathOf(module)).stream())
                .map(YarnSubmission::fileName)
                .collect(Collectors.toSet());
        List<String> shipped = jobJars.stream()
                .filter(jar -> jar.equals(appJar)
                        || jar.contains("/org/streambench/")
                        || jar.startsWith(Home.root().toString())
                        || jobDependencies.contains(fileName(jar)))
                .filter(jar -> !fileName(jar).matches("(hbase-shaded-client|guava)-.*"))
                .collect(Collectors.toCollection(ArrayList::new));
        try (Stream<Path> yarnLib =
                Files.list(Home.root().resolve(APEX_MODULE).resolve("target").resolve("yarn-lib"))) {
            yarnLib.map(Path::toString).forEach(shipped::add);
        }
        Path dfsRoot = Files.createDirectories(settingsFile.resolveSibling("apex"));
        Files.setPosixFilePermissions(dfsRoot, PosixFilePermissions.fromString("rwx------"));
        Properties settings = new Properties();
        settings.setProperty("name", applicationName("apex", spec));
        settings.setProperty("tag", tag);
        settings.setProperty("libraryJars", String.join(",", shipped));
        settings.setProperty("dfsRoot", dfsRoot.toString());
        // Apex gives its containers their own temporary folder itself
        settings.setProperty("containerJvmOptions", String.join(" ", jvmFlags));
        settings.setProperty("containerMemoryMb", Long.toString(megabytes(containerMemory)));
        settings.setProperty("masterMemoryMb", Integer.toString(APEX_MASTER_MEMORY_MB));
        recordResources(settings, "containerMemoryMb", "masterMemoryMb");
        if (spec.password() != null) {
            settings.setProperty("password", spec.password());
        }
        writePrivately(settings, settingsFile, "Apex settings of a streambench run on YARN");
        List<String> command = submitterJvm(
                settingsFile.getParent(),
                jvmFlags,
                String.join(File.pathSeparator, launcherJars)
                        + File.pathSeparator
                        + String.join(File.pathSeparator, jobJars));
        command.addAll(List.of(
                "-Dstreambench.apex.yarnSettings=" + settingsFile,
                "-D" + JobMain.AWAIT_START_PROPERTY + "=true",
                // the launcher is the job's main: it ends (killing the application, deleting the run's temporary
                // folder, which is its own) as soon as its runner is gone
                "-D" + JobMain.RUNNER_PID_PROPERTY + "="
                        + ProcessHandle.current().pid(),
                "-D" + JobMain.OWN_TMP_PROPERTY + "=true",
                "-D" + JobMain.RUNNER_START_PROPERTY + "="
                        + ProcessHandle.current()
                                .info()
                                .startInstant()
                                .map(start -> Long.toString(start.toEpochMilli()))
                                .orElse(""),
                "org.streambench.apex.ApexOnYarn",
                specFile.toString()));
        return command;
    }

    /** A --job-heap size ("512m", "2g": checked before the run) in megabytes. */
    private static long megabytes(String size) {
        long amount = Long.parseLong(size.substring(0, size.length() - 1));
        return Character.toLowerCase(size.charAt(size.length() - 1)) == 'g' ? amount * 1024 : amount;
    }

    private static Path yarnClasspathListing(String module) {
        Path listing = Home.root().resolve(module).resolve("target").resolve("yarn-classpath.txt");
        if (!Files.isRegularFile(listing)) {
            throw new UserError(
                    "the " + module + " module is not built; run ./bench build (or mvn -DskipTests package)");
        }
        return listing;
    }

    /** The submitting JVM up to its main class; the Hadoop client reads the cluster's addresses from its classpath. */
    private List<String> submitterJvm(Path tmp, List<String> jvmFlags, String classpath) {
        List<String> command = new ArrayList<>(List.of(
                Home.javaExecutable(),
                "-Xmx512m",
                // the submitter stages the application's files in a temporary folder that it leaves
                // behind when it is killed: it goes to the run's own, which the runner deletes
                "-Djava.io.tmpdir=" + tmp,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", cluster.conf() + File.pathSeparator + classpath));
        return command;
    }

    private static String applicationName(String engine, ExperimentSpec spec) {
        return "streambench " + engine + " " + spec.database() + " "
                + spec.pattern().cliName() + " " + spec.blobBytes() + "B";
    }

    private static String fileName(String path) {
        return Path.of(path).getFileName().toString();
    }

    private static List<String> jars(String classpath) {
        return Arrays.stream(classpath.split(File.pathSeparator))
                .filter(entry -> entry.endsWith(".jar"))
                .toList();
    }

    /** Writes {@code settings} readable by its owner only: they may carry the database password for the containers. */
    private static void writePrivately(Properties settings, Path file, String comment) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            settings.store(out, comment);
        }
    }

    private static Path moduleJar(String module) throws IOException {
        Path target = Home.root().resolve(module).resolve("target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(file -> file.getFileName().toString().matches(module + "-[0-9].*\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new UserError(
                            "the " + module + " jar is not built; run ./bench build (or mvn -DskipTests package)"));
        }
    }

    /**
     * Starts the submitting JVM of the {@code engine}'s job, its output to {@code log}; {@code
     * jobTmp} is the run's temporary folder, deleted by the runner when the job ends. The
     * submitter's settings (readable by their owner only: they may carry the database password
     * for the containers' environment) go there.
     */
    public Process start(
            String engine,
            ExperimentSpec spec,
            Path specFile,
            Path jobTmp,
            List<String> jvmFlags,
            Map<String, String> environment,
            String containerMemory,
            Path log)
            throws IOException {
        Path settingsFile = jobTmp.resolve(engine + "-submit.properties");
        List<String> command =
                switch (engine) {
                    case "spark" -> sparkCommand(spec, specFile, settingsFile, jvmFlags, containerMemory);
                    case "flink" -> flinkCommand(spec, specFile, settingsFile, jvmFlags, containerMemory);
                    case "apex" -> apexCommand(spec, specFile, settingsFile, jvmFlags, containerMemory);
                    default -> throw new IllegalArgumentException("the " + engine + " job cannot be submitted to YARN");
                };
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        builder.environment().put("HADOOP_CONF_DIR", cluster.conf().toString());
        builder.environment().put("YARN_CONF_DIR", cluster.conf().toString());
        builder.environment().remove(ExperimentSpec.PASSWORD_ENVIRONMENT);
        return builder.start();
    }

    private void recordResources(Properties settings, String... keys) {
        for (String key : keys) {
            resources.put(key, settings.getProperty(key));
        }
    }

    /** What the job asked YARN for (containers, cores, memory), by the engine's own setting names. */
    public Map<String, String> resources() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(resources));
    }

    /** The application, once YARN has it. */
    public Optional<String> applicationId() {
        try {
            return submittedApplication();
        } catch (RuntimeException unreachable) {
            out.println("warning: could not ask YARN for the job's application: " + unreachable.getMessage());
            return Optional.empty();
        }
    }

    /** The application, once YARN has it (asked until then; its id never changes); throws when YARN cannot be asked. */
    private Optional<String> submittedApplication() {
        if (applicationId == null) {
            applicationId = cluster.applicationWithTag(tag).orElse(null);
        }
        return Optional.ofNullable(applicationId);
    }

    /**
     * Whether YARN says the application failed or was killed; false while it runs, after it
     * finished, or when YARN cannot be asked (quietly: it is asked every few seconds).
     */
    public boolean applicationFailed() {
        try {
            Optional<String> application = submittedApplication();
            return application.isPresent()
                    && List.of("FAILED", "KILLED").contains(cluster.applicationState(application.get()));
        } catch (RuntimeException unreachable) {
            return false;
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

    /**
     * Copies the application's container logs, one folder per container, to {@code target} when
     * they are on this machine (the NodeManager's log folders of a single-node cluster); says where
     * they are otherwise.
     */
    public void copyLogs(Path target) {
        Optional<String> application = applicationId();
        if (application.isEmpty()) {
            return;
        }
        List<Path> sources = cluster.nodeManagerLogDirs().stream()
                .map(logDir -> logDir.resolve(application.get()))
                .filter(Files::isDirectory)
                .toList();
        if (sources.isEmpty()) {
            out.println("the containers' logs are YARN's: yarn logs -applicationId " + application.get());
            return;
        }
        try {
            for (Path source : sources) {
                try (Stream<Path> files = Files.walk(source)) {
                    // a container's launch script holds its environment, the database password among it
                    for (Path file : files.filter(file -> Files.isRegularFile(file)
                                    && !file.getFileName().toString().equals("launch_container.sh"))
                            .toList()) {
                        Path copy = target.resolve(source.relativize(file).toString());
                        Files.createDirectories(copy.getParent());
                        Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        } catch (IOException e) {
            out.println("warning: could not copy the containers' logs of " + application.get() + " from " + sources
                    + ": " + e.getMessage());
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
