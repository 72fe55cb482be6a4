package org.streambench.runner.experiment;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.engine.EngineProvider;
import org.streambench.runner.yarn.YarnCluster;

/**
 * Where a run's job runs: in a JVM of its own on this machine, or submitted to YARN. A runner
 * chooses one for all its runs ({@link #of}); everything that differs between the two is here, so
 * the experiment itself never asks which it is.
 */
public interface JobLauncher {

    /** The local launcher without a cluster, the YARN launcher with one. */
    static JobLauncher of(Optional<YarnCluster> yarn, PrintWriter out) {
        return yarn.<JobLauncher>map(cluster -> new YarnJobLauncher(cluster, out))
                .orElseGet(() -> new LocalJobLauncher(out));
    }

    /** As result.json's {@code environment.cluster} says: local or yarn. */
    String cluster();

    /** The cluster's version (YARN's Hadoop), or null. */
    default String clusterVersion() {
        return null;
    }

    /**
     * Starts the job of {@code engine} on {@code spec} (its spec file in {@code dir}), its output to
     * {@code log}; {@code jobTmp} is the run's temporary folder.
     */
    Job launch(EngineProvider engine, ExperimentSpec spec, Path dir, Path jobTmp, String jobHeap, Path log)
            throws IOException;

    /** A launched job: its process here (the job's JVM, or the JVM that submitted it) and what the cluster knows of it. */
    interface Job {
        Process process();

        /** Ends what of the job runs beyond its process (on YARN: its application). */
        default void killOnCluster() {}

        /** Once the job's process has ended (by itself or killed): what the launcher does after a job. */
        default void ended() {}

        /** Once the job is over: keeps the cluster's logs of it (the containers') in the run's folder {@code dir}. */
        default void keepLogs(Path dir) {}

        /** Once the job is over: deletes what it staged on the cluster's file system in its temporary folder. */
        default void deleteStagingOnCluster(Path jobTmp) {}

        /** "; YARN application ID STATE (...)", or nothing. */
        default String describe() {
            return "";
        }

        /** Whether the cluster says the job failed or was killed (asked while it starts). */
        default boolean failedOnCluster() {
            return false;
        }

        /**
         * Whether the job is over once every worker sent its final status, before its process ends:
         * the rest of the job is then ended, not awaited. On YARN the application's own end takes
         * seconds more; a local job JVM's halt takes a third of a second (HotSpot waits up to
         * 300 ms for threads blocked in native calls, and a job always has some).
         */
        default boolean overWhenWorkersAreDone() {
            return true;
        }

        default String applicationId() {
            return null;
        }

        /** What the job asked the cluster for (containers, cores, memory), or null. */
        default Map<String, String> resources() {
            return null;
        }
    }
}
