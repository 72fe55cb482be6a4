package org.streambench.runner.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.runner.matrix.Cell;

/** Each finished cell is a series of its own, also cells that differ only in their guarantee, interval or setting axes. */
class MatrixMetricsTest {

    @Test
    void cellsThatDifferOnlyInTheirGuaranteeAreSeriesOfTheirOwn(@TempDir Path work) throws Exception {
        List<Cell> cells = List.of(
                new Cell("flink", "postgresql", "update", 1, "sync", "none", null, 1),
                new Cell("flink", "postgresql", "update", 1, "sync", "exactly-once", "1s", 1),
                new Cell("flink", "postgresql", "update", 1, "sync", "exactly-once", "10s", 1),
                new Cell("flink", "postgresql", "update", 1, "sync", "none", null, Map.of("keys", "1000000"), 1));
        try (MatrixMetrics metrics = new MatrixMetrics(work, cells.size())) {
            for (int i = 0; i < cells.size(); i++) {
                metrics.finished(cells.get(i), 1000.0 * (i + 1), null, i + 1, 0, cells.size() - i - 1, 0);
            }
            String scraped = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics.port() + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            List<String> throughputs = scraped.lines()
                    .filter(line -> line.startsWith("streambench_matrix_cell_throughput{"))
                    .toList();
            assertEquals(4, throughputs.size(), scraped);
            assertTrue(
                    throughputs.stream()
                            .anyMatch(line -> line.contains("settings=\"keys=1000000\"") && line.endsWith(" 4000.0")),
                    String.join("\n", throughputs));
            assertTrue(
                    throughputs.stream()
                            .anyMatch(line -> line.contains("guarantee=\"exactly-once\"")
                                    && line.contains("checkpoint_interval=\"10s\"")
                                    && line.endsWith(" 3000.0")),
                    String.join("\n", throughputs));
        }
    }
}
