package org.streambench.operators;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The common main of every engine job: read the spec, start the runtime, let the engine run the
 * pipeline until the runner stops it, then write the job report the runner verifies.
 * Usage of an engine main: {@code <spec.properties> <report.properties>}.
 * <p>
 * Once the generators are done and every record they emitted is processed, the job writes its
 * report and ends its JVM at once: the database holds everything by then, and an engine's own
 * orderly shutdown (seconds for Flink's mini cluster, more for Apex) would only add to every
 * run's overhead. The job ends early, with a report that says why, when a database call fails
 * (every failed call fails the run anyway, so going on would only hammer a database that stopped
 * answering) and when the runner that launched it is gone.
 */
public final class JobMain {

    /** The engine-specific part: build the pipeline and block until it has finished. */
    public interface Pipeline {
        void run(ExperimentSpec spec) throws Exception;
    }

    /** System properties of the job JVM: the launching runner's PID and start time (epoch ms), watched by the job. */
    public static final String RUNNER_PID_PROPERTY = "streambench.runner.pid";

    public static final String RUNNER_START_PROPERTY = "streambench.runner.start";

    /**
     * System property of the job JVM: "true" when its {@code java.io.tmpdir} is a folder of its
     * own, which the job deletes itself if it has to end because its runner is gone.
     */
    public static final String OWN_TMP_PROPERTY = "streambench.ownTmp";

    /** System property of the job JVM: "true" makes the generators wait for {@code POST /start}. */
    public static final String AWAIT_START_PROPERTY = "streambench.awaitStart";

    private static final long COMPLETION_POLL_MILLIS = 20;

    /** The exit code of the report already written, or null before the first. */
    private static Integer reportedExitCode;

    private JobMain() {}

    public static void run(String[] args, String engineVersion, Pipeline pipeline) {
        if (args.length != 2) {
            System.err.println("usage: <spec.properties> <report.properties> (the bench runner launches this)");
            System.exit(2);
        }
        RunnerWatchdog.startIfLaunchedByRunner();
        Path reportFile = Path.of(args[1]);
        JobRuntime runtime = null;
        String status = "finished";
        String error = null;
        try {
            ExperimentSpec spec = ExperimentSpec.read(Path.of(args[0]));
            runtime = JobRuntime.start(spec, Boolean.getBoolean(AWAIT_START_PROPERTY));
            JobRuntime started = runtime;
            runtime.onFailure(reason -> {
                int code = finish(started, reportFile, engineVersion, "failed", reason);
                Runtime.getRuntime().halt(code == 0 ? 1 : code);
            });
            endWhenComplete(runtime, reportFile, engineVersion);
            pipeline.run(spec);
        } catch (Throwable t) {
            status = "failed";
            error = String.valueOf(rootCause(t));
            t.printStackTrace();
        }
        if (runtime != null && runtime.failure() != null) {
            return; // the failure handler writes the report and ends the JVM
        }
        System.exit(finish(runtime, reportFile, engineVersion, status, error));
    }

    private static void endWhenComplete(JobRuntime runtime, Path reportFile, String engineVersion) {
        Thread watcher = new Thread(
                () -> {
                    try {
                        runtime.awaitGeneratorsDone();
                        while (!runtime.drained()) {
                            Thread.sleep(COMPLETION_POLL_MILLIS);
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (runtime.failure() == null) {
                        Runtime.getRuntime().halt(finish(runtime, reportFile, engineVersion, "finished", null));
                    }
                },
                "streambench-end-when-complete");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Writes the job report once; returns the exit code (of the report written first, on later calls). */
    private static synchronized int finish(
            JobRuntime runtime, Path reportFile, String engineVersion, String status, String error) {
        if (reportedExitCode != null) {
            return reportedExitCode;
        }
        int exitCode = status.equals("finished") ? 0 : 1;
        reportedExitCode = exitCode;
        JobReport report;
        if (runtime != null) {
            runtime.requestStop();
            report = runtime.report(status, error, engineVersion);
            runtime.close();
        } else {
            report = JobReport.withoutRuntime(status, error, engineVersion);
        }
        try {
            report.write(reportFile);
        } catch (IOException e) {
            System.err.println("cannot write the job report " + reportFile + ": " + e);
            reportedExitCode = 1;
            return 1;
        }
        System.out.flush();
        System.err.flush();
        return exitCode;
    }

    private static Throwable rootCause(Throwable t) {
        Throwable cause = t;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}
