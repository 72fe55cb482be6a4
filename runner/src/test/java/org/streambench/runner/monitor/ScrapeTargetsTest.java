package org.streambench.runner.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.UserError;

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

    @Test
    void anExporterIsKeptWithItsPathAndSchemeUntilRemoved(@TempDir Path work) throws IOException {
        ScrapeTargets targets = new ScrapeTargets(work);
        targets.addExporter(ScrapeTargets.parseExporter("db=http://dbhost:9187/metrics"));
        targets.addExporter(ScrapeTargets.parseExporter("node=https://dbhost:9100/probe/metrics"));
        assertEquals(
                List.of(
                        new ScrapeTargets.Exporter("db", URI.create("http://dbhost:9187/metrics")),
                        new ScrapeTargets.Exporter("node", URI.create("https://dbhost:9100/probe/metrics"))),
                targets.exporters());
        String file = Files.readString(targets.dir().resolve("exporter-node.json"));
        assertTrue(file.contains("\"__metrics_path__\":\"/probe/metrics\""), file);
        assertTrue(file.contains("\"__scheme__\":\"https\""), file);
        assertTrue(file.contains("\"role\":\"exporter\""), file);
        targets.removeEnded();
        assertEquals(2, targets.exporters().size(), "an exporter is no job: cleaning up ended jobs keeps it");
        assertTrue(targets.removeExporter("db"));
        assertFalse(targets.removeExporter("db"));
        assertEquals(
                List.of("node"),
                targets.exporters().stream().map(ScrapeTargets.Exporter::name).toList());
    }

    @Test
    void aBadExporterIsRefusedInOneLine() {
        for (String bad : new String[] {
            "http://dbhost:9187/metrics",
            "DB=http://dbhost:9187/metrics",
            "db=dbhost:9187",
            "db=ftp://dbhost:9187/metrics",
            "db=http://dbhost/metrics",
            "db=http://dbhost:9187/metrics?x=1",
            "db=http://db host:9187/"
        }) {
            UserError refused = assertThrows(UserError.class, () -> ScrapeTargets.parseExporter(bad), bad);
            assertEquals(1, refused.getMessage().lines().count(), refused.getMessage());
        }
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
