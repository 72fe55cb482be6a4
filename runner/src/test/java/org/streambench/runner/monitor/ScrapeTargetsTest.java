package org.streambench.runner.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scrape targets' files: one per endpoint, gone when closed or when their process ended. */
class ScrapeTargetsTest {

    @Test
    void twoEndpointsOfOneProcessAreTwoTargetsAndClosingOneKeepsTheOther(@TempDir Path work) throws IOException {
        ScrapeTargets targets = new ScrapeTargets(work);
        ScrapeTargets.Registration matrix =
                targets.add(ProcessHandle.current(), "127.0.0.1", 40001, Map.of("role", "matrix"));
        ScrapeTargets.Registration resources =
                targets.add(ProcessHandle.current(), "127.0.0.1", 40002, Map.of("run", "r"));
        assertEquals(List.of("127.0.0.1:40001", "127.0.0.1:40002"), hostPorts(targets.dir()));
        resources.close();
        assertEquals(List.of("127.0.0.1:40001"), hostPorts(targets.dir()));
        matrix.close();
        assertEquals(List.of(), hostPorts(targets.dir()));
    }

    @Test
    void theFileOfAProcessThatEndedIsRemoved(@TempDir Path work) throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        ScrapeTargets targets = new ScrapeTargets(work);
        targets.add(ended.toHandle(), "127.0.0.1", 40003, Map.of());
        targets.add(ProcessHandle.current(), "127.0.0.1", 40004, Map.of());
        assertEquals(1, targets.removeEnded(), "only the running process's target remains");
        assertEquals(List.of("127.0.0.1:40004"), hostPorts(targets.dir()));
    }

    private static List<String> hostPorts(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.toString().endsWith(".json"))
                    .map(file -> {
                        try {
                            String json = Files.readString(file);
                            assertTrue(json.contains("\"targets\""), json);
                            return json.replaceAll(".*\"targets\":\\[\"([^\"]+)\"].*", "$1");
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .sorted()
                    .toList();
        }
    }
}
