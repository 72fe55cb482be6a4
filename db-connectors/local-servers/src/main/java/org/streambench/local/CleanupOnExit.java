package org.streambench.local;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What this runner must undo when it is interrupted (Ctrl-C, SIGTERM): stop the job JVM it
 * launched, mark the result folder as interrupted, stop the database server it started. One
 * JVM-wide shutdown hook runs the steps still registered, newest first; a step that finished
 * normally deregisters itself. (SIGKILL runs no hook: job JVMs watch their runner for that.)
 */
public final class CleanupOnExit {

    /** A registered step; closing it deregisters it without running it. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    private record Step(String what, Runnable action) {}

    private static final Deque<Step> STEPS = new ArrayDeque<>();
    private static volatile boolean exiting;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(CleanupOnExit::runAll, "bench-cleanup-on-exit"));
    }

    private CleanupOnExit() {}

    public static Registration register(String what, Runnable action) {
        Step step = new Step(what, action);
        synchronized (STEPS) {
            STEPS.push(step);
        }
        return () -> {
            synchronized (STEPS) {
                STEPS.remove(step);
            }
        };
    }

    /** True once the JVM is shutting down before the command finished: nothing may look like a result any more. */
    public static boolean exiting() {
        return exiting;
    }

    private static void runAll() {
        exiting = true;
        while (true) {
            Step step;
            synchronized (STEPS) {
                step = STEPS.poll();
            }
            if (step == null) {
                return;
            }
            try {
                step.action().run();
            } catch (RuntimeException e) {
                System.err.println("bench: while interrupted, could not " + step.what() + ": " + e);
            }
        }
    }
}
