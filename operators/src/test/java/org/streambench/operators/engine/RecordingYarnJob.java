package org.streambench.operators.engine;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.streambench.operators.ExperimentSpec;

/**
 * A {@link YarnJob} without a cluster, for the engines' YARN command builders' tests: a checkout
 * of made-up jars under a temporary folder, a cluster whose file system is local, and everything the
 * builder writes or asks for recorded. Shared through the operators' test-jar.
 */
public final class RecordingYarnJob implements YarnJob {

    private final ExperimentSpec spec;
    private final Path root;
    private final Map<String, List<String>> jarsByModule = new LinkedHashMap<>();
    private final Map<String, List<String>> yarnJarsByModule = new LinkedHashMap<>();
    private final Map<String, String> requested = new LinkedHashMap<>();
    private final Path settingsFile;
    private boolean clusterFileSystemIsLocal = true;

    /** A job of {@code spec} in a checkout at {@code root} (a temporary folder). */
    public RecordingYarnJob(ExperimentSpec spec, Path root) throws IOException {
        this.spec = spec;
        this.root = root;
        Path jobTmp = Files.createDirectories(root.resolve("run").resolve("job-tmp"));
        this.settingsFile = jobTmp.resolve(spec.engine() + "-submit.properties");
        Files.writeString(specFile(), spec.toText());
    }

    /** The jars {@link #jarsOf} and {@link #classpathOf} give for {@code module}. */
    public RecordingYarnJob withJars(String module, String... jars) {
        jarsByModule.put(module, List.of(jars));
        return this;
    }

    /** A cluster whose default file system is a distributed one (HDFS), not this machine's. */
    public RecordingYarnJob onDistributedFileSystem() {
        clusterFileSystemIsLocal = false;
        return this;
    }

    /** The jars {@link #yarnClasspathOf} gives for {@code module}. */
    public RecordingYarnJob withYarnJars(String module, String... jars) {
        yarnJarsByModule.put(module, List.of(jars));
        return this;
    }

    /** The settings the builder wrote to {@link #settingsFile}. */
    public Properties writtenSettings() {
        Properties settings = new Properties();
        try (Reader in = Files.newBufferedReader(settingsFile, StandardCharsets.UTF_8)) {
            settings.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return settings;
    }

    /** What the builder said the job asks YARN for. */
    public Map<String, String> requestedResources() {
        return requested;
    }

    @Override
    public ExperimentSpec spec() {
        return spec;
    }

    @Override
    public Path specFile() {
        return root.resolve("run").resolve("spec.properties");
    }

    @Override
    public Path settingsFile() {
        return settingsFile;
    }

    @Override
    public String containerMemory() {
        return "768m";
    }

    @Override
    public long containerMemoryMegabytes() {
        return 768;
    }

    @Override
    public String tag() {
        return "streambench-test-tag";
    }

    @Override
    public String applicationName() {
        return "streambench " + spec.engine() + " " + spec.database();
    }

    @Override
    public boolean clusterFileSystemIsLocal() {
        return clusterFileSystemIsLocal;
    }

    /** What a connector asks every JVM of the job for (the engine tests check it reaches the containers). */
    public static final String CONNECTOR_FLAG = "-Dstreambench.test.connectorFlag=true";

    @Override
    public List<String> connectorJvmFlags() {
        return List.of(CONNECTOR_FLAG);
    }

    @Override
    public List<String> jdk17Opens() {
        return List.of("--add-opens=java.base/java.lang=ALL-UNNAMED");
    }

    @Override
    public String classpathOf(String module) {
        return String.join(":", jarsOf(module));
    }

    @Override
    public List<String> jarsOf(String module) {
        return jarsByModule.getOrDefault(module, List.of());
    }

    @Override
    public List<String> yarnClasspathOf(String module) {
        return yarnJarsByModule.getOrDefault(module, List.of());
    }

    @Override
    public Path moduleJar(String module) {
        return root.resolve(module).resolve("target").resolve(module + "-0.1.0.jar");
    }

    @Override
    public Path moduleFile(String module, String relative) {
        return root.resolve(module).resolve(relative);
    }

    @Override
    public boolean inCheckout(String path) {
        return Path.of(path).startsWith(root);
    }

    @Override
    public void writePrivately(Properties settings, String comment) throws IOException {
        try (Writer out = Files.newBufferedWriter(settingsFile, StandardCharsets.UTF_8)) {
            settings.store(out, comment);
        }
    }

    @Override
    public void requested(Properties settings, String... keys) {
        for (String key : keys) {
            requested.put(key, settings.getProperty(key));
        }
    }

    @Override
    public List<String> submitterJvm(List<String> jvmFlags, String classpath) {
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", classpath));
        return command;
    }
}
