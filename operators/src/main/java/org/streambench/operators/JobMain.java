package org.streambench.operators;

import java.nio.file.Path;

/**
 * The common main of every engine job: read the spec, start the job's first worker, let the
 * engine run the pipeline until the job is complete. Usage of an engine main: {@code <spec.properties>}.
 * <p>
 * Once the generators are done and every record they emitted is processed, every worker pushes
 * its final counts and latencies to the runner's collector, and the job ends its JVM at once:
 * the database holds everything by then, and an engine's own orderly shutdown (seconds for
 * Flink's mini cluster, more for Apex) would only add to every run's overhead. The job ends
 * early, failed with a reason the collector learns, when a database call fails (every failed call
 * fails the run anyway, so going on would only hammer a database that stopped answering) and
 * when the runner that launched it is gone.
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

    /** How long the job waits for its other workers' final statuses, and for the last records after its engine ended. */
    private static final long FINAL_TIMEOUT_MILLIS = 10_000;

    private static final long COMPLETION_POLL_MILLIS = 20;

    private JobMain() {}

    public static void run(String[] args, String engineVersion, Pipeline pipeline) {
        if (args.length != 1) {
            System.err.println("usage: <spec.properties> (the bench runner launches this)");
            System.exit(2);
        }
        RunnerWatchdog.startIfLaunchedByRunner();
        JobRuntime runtime = null;
        try {
            ExperimentSpec spec = ExperimentSpec.read(Path.of(args[0]));
            runtime = JobRuntime.start(spec, Boolean.getBoolean(AWAIT_START_PROPERTY));
            runtime.engineVersion(engineVersion);
            runtime.ownJvm();
            runtime.onFailure(reason -> halt(1));
            if (spec.guarantee().recovers()) {
                // after a restart from a checkpoint, records processed twice count as handled, so the
                // in-flight count reaches 0 before the last records are processed: an engine that
                // recovers ends by itself once its sources end and everything they emitted is through
                runtime.finishesWithItsPipeline();
            } else {
                endWhenComplete(runtime);
            }
            pipeline.run(spec);
        } catch (Throwable t) {
            if (runtime == null || !endedByItsClusterAfterTheStop(runtime, t)) {
                t.printStackTrace();
                if (runtime != null) {
                    runtime.fail(String.valueOf(rootCause(t))); // ends the JVM
                }
                halt(1);
            }
        }
        // the engine ended by itself: its last records may still be on their way to the collector
        try {
            long deadline = System.currentTimeMillis() + FINAL_TIMEOUT_MILLIS;
            while (!runtime.complete() && System.currentTimeMillis() < deadline) {
                Thread.sleep(COMPLETION_POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!runtime.complete()) {
            runtime.fail("the engine ended with " + runtime.inFlight() + " emitted records not processed");
        }
        finishAndHalt(runtime);
    }

    private static void endWhenComplete(JobRuntime runtime) {
        Thread watcher = new Thread(
                () -> {
                    try {
                        while (!runtime.complete()) {
                            Thread.sleep(COMPLETION_POLL_MILLIS);
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                    finishAndHalt(runtime);
                },
                "streambench-end-when-complete");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Pushes this worker's final status, waits a moment for the other workers' and ends the JVM. */
    private static synchronized void finishAndHalt(JobRuntime runtime) {
        if (runtime.failure() != null) {
            return; // the failure handler ends the JVM
        }
        runtime.finish();
        boolean allFinal;
        try {
            allFinal = runtime.awaitAllFinal(FINAL_TIMEOUT_MILLIS);
        } catch (InterruptedException e) {
            allFinal = false;
        }
        if (!allFinal) {
            System.err.println("streambench: not every worker pushed its final status within " + FINAL_TIMEOUT_MILLIS
                    + " ms; the runner reports the run as failed");
        }
        runtime.close();
        halt(allFinal ? 0 : 1);
    }

    private static void halt(int code) {
        Halt.now(code);
    }

    /**
     * Whether {@code t} is the engine's cluster ending the job's main once the job has ended after the
     * runner's stop: a Flink application cluster on YARN interrupts the main still waiting for the
     * job's result when the job finishes. That is the engine ending by itself, and the wait below
     * says whether every record got through.
     */
    private static boolean endedByItsClusterAfterTheStop(JobRuntime runtime, Throwable t) {
        return rootCause(t) instanceof InterruptedException && runtime.stopRequested() && runtime.generatorsDone();
    }

    private static Throwable rootCause(Throwable t) {
        Throwable cause = t;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}
