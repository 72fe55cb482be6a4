package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.LocalServers;
import org.streambench.servers.TestServers;

/**
 * A full disk ends a run with one clear line, keeps no half-written result and stops the server
 * the run started: the result folder, and the server's data folder, each on a small tmpfs that
 * fills up during the run (mounting needs root, as the suite's tests run here and in CI).
 */
@Tag("chaos")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DiskFullTest {

    @Test
    void aResultFolderThatFillsUpEndsTheRunInOneLine(@TempDir Path tmp) throws Exception {
        Path work = tmp.resolve("work");
        try (SmallDisk disk = SmallDisk.mount(tmp.resolve("disk"), "1m")) {
            disk.fillLeaving(8 * 1024);
            Path out = disk.dir().resolve("run");
            CliOutput run = bench(tmp, work, "--db", "postgresql", "--out", out.toString());

            assertEquals(1, run.code(), run.output());
            assertOneLineNamesTheFullDisk(run.output());
            assertNoHalfWrittenResult(out);
            assertServerStopped(work);
        }
    }

    @Test
    void aServerDataFolderThatFillsUpEndsTheRunInOneLine(@TempDir Path tmp) throws Exception {
        try (SmallDisk disk = SmallDisk.mount(tmp.resolve("disk"), "160m")) {
            Path work = disk.dir().resolve("work");
            Path out = tmp.resolve("run");
            // 100 kB BLOBs inserted until the measured window ends: far more than the disk holds
            CliOutput run = bench(
                    tmp,
                    work,
                    "--db",
                    "postgresql",
                    "--pattern",
                    "insert",
                    "--blob",
                    "100000",
                    "--out",
                    out.toString());

            assertEquals(1, run.code(), run.output());
            assertOneLineNamesTheFullDisk(run.output());
            Map<String, Object> result = ResultFiles.read(out);
            assertEquals("failed", result.get("status"), run.output());
            assertTrue(String.valueOf(result.get("error")).contains("No space left on device"), run.output());
            assertServerStopped(work);
        }
    }

    private record CliOutput(int code, String output) {}

    private static CliOutput bench(Path tmp, Path work, String... args) throws Exception {
        Path log = tmp.resolve("bench.log");
        List<String> command = new java.util.ArrayList<>(List.of(
                "run",
                "--engine",
                "flink",
                "--db-port",
                Integer.toString(TestServers.freePort()),
                "--keys",
                "200",
                "--warmup",
                "1s",
                "--duration",
                "20s",
                "--metrics-port",
                "0"));
        command.addAll(List.of(args));
        Process bench = Processes.bench(work, log, command.toArray(String[]::new));
        try {
            assertTrue(bench.waitFor(5, TimeUnit.MINUTES), "the run ended");
            return new CliOutput(bench.exitValue(), Files.readString(log));
        } finally {
            bench.descendants().forEach(ProcessHandle::destroyForcibly);
            bench.destroyForcibly();
        }
    }

    private static void assertOneLineNamesTheFullDisk(String output) {
        List<String> lines = output.lines()
                .filter(l -> l.contains("No space left on device"))
                .toList();
        assertFalse(lines.isEmpty(), "the full disk is named: " + output);
        assertFalse(output.contains("\tat "), "no stack trace: " + output);
        assertFalse(output.contains("unexpected failure"), output);
    }

    private static void assertNoHalfWrittenResult(Path out) throws IOException {
        if (!Files.isDirectory(out)) {
            return;
        }
        try (Stream<Path> files = Files.list(out)) {
            List<String> names = files.map(p -> p.getFileName().toString()).toList();
            assertFalse(names.stream().anyMatch(n -> n.endsWith(".tmp")), "a temporary file is left: " + names);
            if (names.contains(ResultFiles.RESULT)) {
                assertEquals("failed", ResultFiles.read(out).get("status"), "a result file is whole or absent");
            }
        }
    }

    private static void assertServerStopped(Path work) {
        assertTrue(
                new LocalServers(work, new PrintWriter(new StringWriter()))
                        .running("postgresql")
                        .isEmpty(),
                "the run stops the server it started");
    }

    /** A tmpfs of a given size mounted on a folder, unmounted on close. */
    private record SmallDisk(Path dir) implements AutoCloseable {

        static SmallDisk mount(Path dir, String size) throws IOException {
            Files.createDirectories(dir);
            run("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0755", "tmpfs", dir.toString());
            return new SmallDisk(dir);
        }

        /** Fills the disk with a file until {@code bytes} are left. */
        void fillLeaving(long bytes) throws IOException {
            long free = Files.getFileStore(dir).getUsableSpace();
            Files.write(dir.resolve("filler"), new byte[(int) (free - bytes)]);
        }

        @Override
        public void close() throws IOException {
            run("umount", "--lazy", dir.toString());
        }

        private static void run(String... command) throws IOException {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                    throw new AssertionError(String.join(" ", command) + " failed (the test needs root): " + output);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted: " + String.join(" ", command), e);
            }
        }
    }
}
