package org.streambench.runner.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Says how a job JVM ended: the failure its workers reported, if one did, else its exit status. */
public final class JobEnd {

    private static final Map<Integer, String> SIGNALS =
            Map.of(1, "SIGHUP", 2, "SIGINT", 6, "SIGABRT", 9, "SIGKILL", 11, "SIGSEGV", 15, "SIGTERM");

    private JobEnd() {}

    /** E.g. "failed: ...", "process died: killed by signal 9 (SIGKILL)", "process exited with code 1: ...". */
    static String describe(Process job, Path jobLog, Optional<String> failure) {
        if (failure.isPresent()) {
            return "failed: " + failure.get();
        }
        if (job.isAlive()) {
            return "stopped answering (its process still runs; log: " + jobLog + ")";
        }
        int code = job.exitValue();
        if (code > 128) {
            int signal = code - 128;
            return String.format(
                    Locale.ROOT,
                    "process died: killed by signal %d (%s); log: %s",
                    signal,
                    SIGNALS.getOrDefault(signal, "signal " + signal),
                    jobLog);
        }
        return "process exited with code " + code + (code == 0 ? "" : ": " + lastError(jobLog)) + "; log: " + jobLog;
    }

    /** The last line of the log that reports an exception or error, else its last line. */
    static String lastError(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return lines.stream()
                    .filter(l -> l.contains("Exception") || l.contains("Error") || l.startsWith("streambench"))
                    .reduce((first, second) -> second)
                    .orElse(lines.isEmpty() ? "no output" : lines.get(lines.size() - 1))
                    .trim();
        } catch (IOException e) {
            return "no job log (" + e.getMessage() + ")";
        }
    }
}
