package org.streambench.local;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** How the runner stops the processes it started (servers, YARN): politely first, forcibly after a timeout. */
public final class ProcessStopping {

    private ProcessStopping() {}

    /**
     * Sends SIGTERM to every process, waits up to {@code timeoutSeconds} in all for them to end,
     * and kills those still running then, saying so on {@code out} under {@code name}.
     */
    public static void terminate(PrintWriter out, String name, List<ProcessHandle> processes, long timeoutSeconds) {
        processes.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        for (ProcessHandle process : processes) {
            try {
                process.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception timeout) {
                out.println(
                        name + " (pid " + process.pid() + ") did not stop within " + timeoutSeconds + " s; killing it");
                process.destroyForcibly();
            }
        }
    }
}
