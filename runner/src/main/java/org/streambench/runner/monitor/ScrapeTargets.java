package org.streambench.runner.monitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The metrics endpoints of the job JVMs (and of a running matrix) that run now, as Prometheus
 * file-based service discovery targets: one file per endpoint in {@code work/monitor/targets/},
 * written when the job is launched and removed when it ends (a file whose process no longer runs,
 * left by a killed runner, is removed by the next launch and by {@code bench monitor}). Written whether or not Prometheus runs, so one started
 * later finds the jobs already running.
 */
public final class ScrapeTargets {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;

    public ScrapeTargets(Path work) {
        this.dir = work.resolve("monitor").resolve("targets");
    }

    public Path dir() {
        return dir;
    }

    /** Adds the endpoint that {@code process} serves; closing the registration removes it. */
    public Registration add(ProcessHandle process, String host, int port, Map<String, String> labels) {
        removeEnded();
        // one process may serve several endpoints (the runner: a matrix's and a run's resources)
        Path file = dir.resolve("pid-" + process.pid() + "-port-" + port + ".json");
        Map<String, String> all = new TreeMap<>(labels);
        all.put("pid", Long.toString(process.pid()));
        write(file, List.of(host + ":" + port), all);
        return new Registration() {
            @Override
            public void targets(List<String> hostPorts) {
                write(file, hostPorts, all);
            }

            @Override
            public void close() {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }

    private static void write(Path file, List<String> hostPorts, Map<String, String> labels) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            JSON.writeValue(tmp.toFile(), List.of(Map.of("targets", hostPorts, "labels", labels)));
            // Prometheus reads *.json only, so it never sees a half-written file
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the scrape target " + file, e);
        }
    }

    /** Removes the files of jobs that no longer run; returns how many remain. */
    public int removeEnded() {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int remaining = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "pid-*.json")) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                String pid = name.substring("pid-".length(), name.length() - ".json".length())
                        .split("-")[0];
                if (pid.chars().allMatch(Character::isDigit)
                        && !ProcessHandle.of(Long.parseLong(pid))
                                .map(ProcessHandle::isAlive)
                                .orElse(false)) {
                    Files.deleteIfExists(file);
                } else {
                    remaining++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return remaining;
    }

    /** A target while its job runs. */
    public interface Registration extends AutoCloseable {
        /** The endpoints ({@code host:port}) of the job's workers, once the job has more than the one added. */
        void targets(List<String> hostPorts);

        @Override
        void close();
    }
}
