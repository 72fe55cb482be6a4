package org.streambench.runner.experiment;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.engine.EngineProvider;
import org.streambench.runner.yarn.YarnCluster;
import org.streambench.runner.yarn.YarnSubmission;

/** The job submitted to a YARN cluster by the engine's own submitter; the application is killed when the run ends. */
final class YarnJobLauncher implements JobLauncher {

    private final YarnCluster cluster;
    private final PrintWriter out;

    YarnJobLauncher(YarnCluster cluster, PrintWriter out) {
        this.cluster = cluster;
        this.out = out;
    }

    @Override
    public String cluster() {
        return "yarn";
    }

    @Override
    public String clusterVersion() {
        try {
            return cluster.info().hadoopVersion();
        } catch (RuntimeException unreachable) {
            out.println("warning: could not ask YARN for its version: " + unreachable.getMessage());
            return null;
        }
    }

    @Override
    public Job launch(EngineProvider engine, ExperimentSpec spec, Path dir, Path jobTmp, String jobHeap, Path log)
            throws IOException {
        YarnSubmission submission = new YarnSubmission(cluster, out);
        out.println("submitting the " + engine.name() + " job to YARN at " + cluster.webapp() + " (log: " + log + ")");
        Process process = submission.start(engine, spec, dir.resolve(ExperimentRunner.JOB_SPEC), jobTmp, jobHeap, log);
        return new Job() {
            @Override
            public Process process() {
                return process;
            }

            @Override
            public void killOnCluster() {
                submission.kill();
            }

            @Override
            public void keepLogs(Path dir) {
                submission.copyLogs(dir.resolve(ExperimentRunner.YARN_LOGS));
            }

            @Override
            public void deleteStagingOnCluster(Path jobTmp) {
                submission.deleteStaging(jobTmp);
            }

            @Override
            public String describe() {
                return submission.describe();
            }

            @Override
            public boolean failedOnCluster() {
                return submission.applicationFailed();
            }

            @Override
            public String applicationId() {
                return submission.applicationId().orElse(null);
            }

            @Override
            public Map<String, String> resources() {
                return submission.resources();
            }
        };
    }
}
