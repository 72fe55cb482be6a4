package org.streambench.operators.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.streambench.operators.ExperimentSpec;

/**
 * One job to submit to YARN, as the runner hands it to the engine's {@link
 * EngineProvider#yarnSubmitCommand}: the experiment, the cluster, and the checkout's built modules.
 */
public interface YarnJob {

    ExperimentSpec spec();

    /** The spec file the job's main reads (without the password; see {@link ExperimentSpec#PASSWORD_ENVIRONMENT}). */
    Path specFile();

    /** Where the submitter's settings go: in the run's temporary folder, readable by its owner only. */
    Path settingsFile();

    /** The memory of each container the job asks for, as {@code --job-heap} gave it ("512m", "2g"). */
    String containerMemory();

    long containerMemoryMegabytes();

    /** Marks the application, so the runner finds it to record and to kill it. */
    String tag();

    /** The application's name, e.g. "streambench flink postgresql update 10000B". */
    String applicationName();

    /** Whether the cluster's default file system is this machine's (a single-node YARN here). */
    boolean clusterFileSystemIsLocal();

    /** The {@code --add-opens} flags every JVM of the cluster needs on JDK 17 (Hadoop's reflection). */
    List<String> jdk17Opens();

    /** The JVM flags the connectors need (their {@code jvm-flags}): every container that runs the job's operators gets them. */
    List<String> connectorJvmFlags();

    /** The runtime classpath of a module of the checkout (its classes and target/classpath.txt). */
    String classpathOf(String module);

    /** The jars of {@link #classpathOf}. */
    List<String> jarsOf(String module);

    /** The jars a module lists in target/yarn-classpath.txt: what its submitting JVM needs besides its own classpath. */
    List<String> yarnClasspathOf(String module);

    /** A module's own jar (target/MODULE-VERSION.jar). */
    Path moduleJar(String module);

    /** A file or folder of a module, relative to the module's folder (e.g. "target/yarn-lib"). */
    Path moduleFile(String module, String relative);

    /** Whether {@code path} lies in the checkout (a module's build output), not in the Maven repository. */
    boolean inCheckout(String path);

    /** Writes the submitter's settings readable by their owner only: they may carry the database password. */
    void writePrivately(Properties settings, String comment) throws IOException;

    /** Records what the job asks YARN for (containers, cores, memory), by these keys of {@code settings}. */
    void requested(Properties settings, String... keys);

    /**
     * The submitting JVM's command up to its main class: the cluster's configuration first on
     * {@code classpath}, its temporary folder the run's own, {@code jvmFlags} added.
     */
    List<String> submitterJvm(List<String> jvmFlags, String classpath);
}
