package org.streambench.operators;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The common main of every engine job: read the spec, start the runtime, let the engine run the
 * pipeline until the runner stops it, then write the job report the runner verifies.
 * Usage of an engine main: {@code <spec.properties> <report.properties>}.
 * <p>
 * The job ends early, with a report that says why, when a database call fails (every failed call
 * fails the run anyway, so going on would only hammer a database that stopped answering) and when
 * the runner that launched it is gone.
 */
public final class JobMain {

    /** The engine-specific part: build the pipeline and block until it has finished. */
    public interface Pipeline {
        void run(ExperimentSpec spec) throws Exception;
    }

    /** System properties of the job JVM: the launching runner's PID and start time (epoch ms), watched by the job. */
    public static final String RUNNER_PID_PROPERTY = "streambench.runner.pid";

    public static final String RUNNER_START_PROPERTY = "streambench.runner.start";

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
            runtime = JobRuntime.start(spec);
            JobRuntime started = runtime;
            runtime.onFailure(reason -> {
                int code = finish(started, reportFile, engineVersion, "failed", reason);
                Runtime.getRuntime().halt(code == 0 ? 1 : code);
            });
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

    /** Writes the job report once; returns the exit code. */
    private static synchronized int finish(
            JobRuntime runtime, Path reportFile, String engineVersion, String status, String error) {
        JobReport report;
        if (runtime != null) {
            runtime.requestStop();
            report = runtime.report(status, error, engineVersion);
            runtime.close();
        } else {
            report = JobReport.withoutRuntime(status, error, engineVersion);
        }
        int exitCode = status.equals("finished") ? 0 : 1;
        try {
            report.write(reportFile);
        } catch (IOException e) {
            System.err.println("cannot write the job report " + reportFile + ": " + e);
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
