package org.streambench.runner.yarn;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
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
import java.util.stream.Stream;
import org.streambench.db.Databases;
import org.streambench.local.Home;
import org.streambench.local.UserError;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.engine.EngineProvider;
import org.streambench.operators.engine.YarnJob;

/**
 * How the runner submits an engine's job to YARN, by a submitting JVM that the engine's own
 * folder describes ({@link EngineProvider#yarnSubmitCommand}) and that waits until the application
 * ends. The job's operators run in containers of their own, so generator and processing instances
 * may run in different JVMs, each with its worker reporting to the runner's collector. This class
 * holds what is the same for every engine: the application's tag, its id and state, its logs, its kill.
 */
public final class YarnSubmission {

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

    private static Path moduleJar(String module) {
        Path target = Home.root().resolve(module).resolve("target");
        String artifact = Path.of(module).getFileName().toString();
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(file -> file.getFileName().toString().matches(artifact + "-[0-9].*\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new UserError(
                            "the " + module + " jar is not built; run ./bench build (or mvn -DskipTests package)"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts the submitting JVM of the {@code engine}'s job, its output to {@code log}; {@code
     * jobTmp} is the run's temporary folder, deleted by the runner when the job ends. The
     * submitter's settings (readable by their owner only: they may carry the database password
     * for the containers' environment) go there.
     */
    public Process start(
            EngineProvider engine, ExperimentSpec spec, Path specFile, Path jobTmp, String containerMemory, Path log)
            throws IOException {
        // absolute: on a cluster with HDFS the engines stage in this path there, where a relative one would be
        // the user's HDFS home's (or, for Apex, no path at all)
        Path settingsFile = jobTmp.toAbsolutePath().resolve(engine.name() + "-submit.properties");
        Job job = new Job(engine, spec, specFile, settingsFile, containerMemory);
        ProcessBuilder builder = new ProcessBuilder(engine.yarnSubmitCommand(job))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(engine.environment());
        builder.environment().put("HADOOP_CONF_DIR", cluster.conf().toString());
        builder.environment().put("YARN_CONF_DIR", cluster.conf().toString());
        builder.environment().remove(ExperimentSpec.PASSWORD_ENVIRONMENT);
        return builder.start();
    }

    /** What an engine's submitter is built from: the run, this cluster and the checkout's modules. */
    private final class Job implements YarnJob {
        private final EngineProvider engine;
        private final ExperimentSpec spec;
        private final Path specFile;
        private final Path settingsFile;
        private final String containerMemory;

        Job(EngineProvider engine, ExperimentSpec spec, Path specFile, Path settingsFile, String containerMemory) {
            this.engine = engine;
            this.spec = spec;
            this.specFile = specFile;
            this.settingsFile = settingsFile;
            this.containerMemory = containerMemory;
        }

        @Override
        public ExperimentSpec spec() {
            return spec;
        }

        @Override
        public Path specFile() {
            return specFile;
        }

        @Override
        public Path settingsFile() {
            return settingsFile;
        }

        @Override
        public String containerMemory() {
            return containerMemory;
        }

        @Override
        public long containerMemoryMegabytes() {
            return megabytes(containerMemory);
        }

        @Override
        public String tag() {
            return tag;
        }

        @Override
        public String applicationName() {
            return "streambench " + engine.name() + " " + spec.database() + " "
                    + spec.pattern().cliName() + " " + spec.blobBytes() + "B";
        }

        @Override
        public boolean clusterFileSystemIsLocal() {
            return cluster.defaultFileSystemIsLocal();
        }

        @Override
        public List<String> jdk17Opens() {
            return LocalYarn.JDK17_OPENS;
        }

        @Override
        public List<String> connectorJvmFlags() {
            return Databases.jvmFlags();
        }

        @Override
        public String classpathOf(String module) {
            return Home.classpathOf(module);
        }

        @Override
        public List<String> jarsOf(String module) {
            return jars(Home.classpathOf(module));
        }

        @Override
        public List<String> yarnClasspathOf(String module) {
            try {
                return jars(Files.readString(yarnClasspathListing(module)).trim());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Path moduleJar(String module) {
            return YarnSubmission.moduleJar(module);
        }

        @Override
        public Path moduleFile(String module, String relative) {
            return Home.root().resolve(module).resolve(relative);
        }

        @Override
        public boolean inCheckout(String path) {
            return Path.of(path).startsWith(Home.root());
        }

        @Override
        public void writePrivately(Properties settings, String comment) throws IOException {
            YarnSubmission.writePrivately(settings, settingsFile, comment);
        }

        @Override
        public void requested(Properties settings, String... keys) {
            for (String key : keys) {
                resources.put(key, settings.getProperty(key));
            }
        }

        @Override
        public List<String> submitterJvm(List<String> jvmFlags, String classpath) {
            return YarnSubmission.this.submitterJvm(settingsFile.getParent(), jvmFlags, classpath);
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

    /**
     * Deletes what the job staged on the cluster's distributed file system: every engine stages in
     * the run's temporary folder {@code jobTmp}, which on a cluster with HDFS is a folder of the same
     * (absolute) path there.
     */
    public void deleteStaging(Path jobTmp) {
        try {
            cluster.deleteFromDistributedFileSystem(jobTmp);
        } catch (IOException | RuntimeException e) {
            out.println("warning: could not delete the job's staged files " + jobTmp + " from the cluster's HDFS: "
                    + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
