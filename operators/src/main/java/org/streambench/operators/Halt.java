package org.streambench.operators;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * How a job's JVM ends: at once, without shutdown hooks (an engine's own take seconds or hang),
 * after the few actions registered to run first, each given a few seconds. Used for what a
 * job JVM started outside itself and must not leave behind, such as an Apex application on YARN.
 */
public final class Halt {

    private static final List<Runnable> FIRST = new CopyOnWriteArrayList<>();
    private static final long ACTION_MILLIS = 5_000;

    private Halt() {}

    /** Runs {@code action} before this JVM halts, however it halts. */
    public static void first(Runnable action) {
        FIRST.add(action);
    }

    /** Runs the registered actions, then halts the JVM with {@code code}. */
    public static void now(int code) {
        for (Runnable action : FIRST) {
            Thread thread = new Thread(action, "streambench-before-halt");
            thread.setDaemon(true);
            thread.start();
            try {
                thread.join(ACTION_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(code);
    }
}
