package org.streambench.operators;

import java.util.function.BooleanSupplier;

/** Waiting for a condition that nothing signals: asked again every {@value #INTERVAL_MILLIS} ms. */
public final class Polling {

    static final long INTERVAL_MILLIS = 20;

    private Polling() {}

    /** Waits until {@code done} holds; false if it still did not after {@code timeoutMillis}. */
    public static boolean until(BooleanSupplier done, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!done.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                return false;
            }
            Thread.sleep(INTERVAL_MILLIS);
        }
        return true;
    }
}
