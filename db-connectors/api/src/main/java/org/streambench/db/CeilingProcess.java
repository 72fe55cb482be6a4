package org.streambench.db;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs a load tool's process to its end: output into a log file, stopped with the JVM or when it overruns. */
public final class CeilingProcess {

    private CeilingProcess() {}

    /**
     * Runs {@code command} with {@code environment} added, its output (stdout and stderr) into
     * {@code log}, in the log's folder: what a tool writes into its working directory (latte its own
     * log) stays beside its output, not in the folder the user ran the suite from. Returns the
     * output. A process still running after {@code timeoutSeconds}, or when this thread is
     * interrupted or the JVM exits, is stopped. A non-zero exit is an {@link IOException} with the
     * output's last lines.
     */
    public static String run(List<String> command, Map<String, String> environment, Path log, long timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(log.toAbsolutePath().getParent().toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        Thread stop = new Thread(() -> stop(process), "stop " + command.get(0));
        Runtime.getRuntime().addShutdownHook(stop);
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                stop(process);
                throw new IOException(
                        command.get(0) + " did not end within " + timeoutSeconds + " s; stopped it (log: " + log + ")");
            }
        } catch (InterruptedException e) {
            stop(process);
            throw e;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException(command.get(0) + " failed (exit " + process.exitValue() + "): " + lastLines(output, 3)
                    + " (log: " + log + ")");
        }
        return output;
    }

    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** What {@code program --version} prints, stripped. */
    public static String version(String program) throws IOException, InterruptedException {
        Path out = Files.createTempFile(Path.of(program).getFileName() + "-version", ".txt");
        try {
            return run(List.of(program, "--version"), Map.of(), out, 30).strip();
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The first group of {@code pattern} in a tool's {@code output}; an {@link IOException} naming the tool if absent. */
    public static String find(String tool, Pattern pattern, String output) throws IOException {
        Matcher m = pattern.matcher(output);
        if (!m.find()) {
            throw new IOException(tool + "'s output has no '" + pattern.pattern() + "': "
                    + output.strip().lines().reduce((a, b) -> b).orElse("(empty)"));
        }
        return m.group(1);
    }

    static String lastLines(String output, int count) {
        List<String> lines = output.strip().lines().toList();
        return String.join(" / ", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }
}
