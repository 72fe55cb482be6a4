package org.streambench.operators;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Ends the job JVM when the runner that launched it is gone (killed with SIGKILL, crashed):
 * a job without its runner would otherwise keep writing to the database and corrupt the next
 * run. The runner passes its PID and start time; both must match, so a reused PID does not count.
 * When the runner gave the job a temporary folder of its own, the watchdog deletes it on the way
 * out, as the runner would have (engines leave files there).
 */
final class RunnerWatchdog {

    private static final long CHECK_MILLIS = 500;

    private RunnerWatchdog() {}

    /** Starts watching if this JVM was launched by a runner (the properties are set); otherwise does nothing. */
    static void startIfLaunchedByRunner() {
        String pid = System.getProperty(JobMain.RUNNER_PID_PROPERTY);
        if (pid == null) {
            return;
        }
        long runnerPid = Long.parseLong(pid);
        String start = System.getProperty(JobMain.RUNNER_START_PROPERTY);
        Optional<Instant> runnerStart = start == null || start.isBlank()
                ? Optional.empty()
                : Optional.of(Instant.ofEpochMilli(Long.parseLong(start)));
        Thread watchdog = new Thread(
                () -> {
                    while (alive(runnerPid, runnerStart)) {
                        try {
                            Thread.sleep(CHECK_MILLIS);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    System.err.println("streambench: the runner (pid " + runnerPid + ") is gone; ending the job now");
                    System.err.flush();
                    if (Boolean.getBoolean(JobMain.OWN_TMP_PROPERTY)) {
                        deleteQuietly(Path.of(System.getProperty("java.io.tmpdir")));
                    }
                    Halt.now(3);
                },
                "streambench-runner-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /**
     * Best effort: the engine's threads are still running and may create or delete files while the
     * folder is walked, which aborts a walk or leaves a folder non-empty. So the folder is first
     * moved aside (a thread that writes by its old path then fails instead of refilling it), and the
     * deletion tries again for a short while; the JVM ends right after.
     */
    static void deleteQuietly(Path dir) {
        long deadline = System.nanoTime() + DELETE_PATIENCE_NANOS;
        Path aside = dir.resolveSibling(dir.getFileName() + ".deleting");
        while (Files.exists(dir) || Files.exists(aside)) {
            if (Files.exists(dir) && !Files.exists(aside)) {
                try {
                    Files.move(dir, aside);
                } catch (IOException | RuntimeException cannotMove) {
                    // deleted where it is
                }
            }
            for (Path tree : List.of(aside, dir)) {
                try (Stream<Path> paths = Files.walk(tree)) {
                    paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
                } catch (NoSuchFileException gone) {
                    // nothing there
                } catch (IOException | RuntimeException e) {
                    if (System.nanoTime() > deadline) {
                        System.err.println("streambench: could not delete " + tree + ": " + e);
                        return;
                    }
                }
            }
            if (Files.exists(dir) || Files.exists(aside)) {
                if (System.nanoTime() > deadline) {
                    System.err.println("streambench: could not delete " + dir + " entirely");
                    return;
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static final long DELETE_PATIENCE_NANOS = 2_000_000_000L;

    static boolean alive(long pid, Optional<Instant> expectedStart) {
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(handle -> expectedStart.isEmpty()
                        || handle.info()
                                .startInstant()
                                .map(actual -> Math.abs(actual.toEpochMilli()
                                                - expectedStart.get().toEpochMilli())
                                        < 1000)
                                .orElse(true))
                .isPresent();
    }
}
