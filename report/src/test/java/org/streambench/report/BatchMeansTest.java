package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.runWithSeconds;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.model.RunDocument.Second;

/** A single run's own uncertainty, by batch means of its seconds, and the ties it makes. */
class BatchMeansTest {

    /** 20 s of samples: 5 batches of 4 s, whose means are 100, 110, 90, 100, 100. */
    @Test
    void theIntervalIsStudentsOverTheMeansOfBatchesOfFourSeconds() {
        double[] batchMeans = {100, 110, 90, 100, 100};
        List<Second> seconds = new ArrayList<>();
        seconds.add(new Second(0, 0, 1, true, 5000, 5000, 0, null, 0, Map.of())); // warm-up: left out
        for (int i = 0; i < 20; i++) {
            // within a batch the seconds swing (+-40) around its mean: that swing is not the uncertainty
            long records = Math.round(batchMeans[i / 4] + (i % 2 == 0 ? 40 : -40));
            seconds.add(new Second(i + 1, 0, 1, false, records, records, 10, 200.0 + (i / 4) * 10, 0, Map.of()));
        }
        // sd of the batch means: sqrt((0 + 100 + 100 + 0 + 0) / 4) = 7.071; t(4) = 2.776; / sqrt(5)
        assertEquals(2.776 * Math.sqrt(50) / Math.sqrt(5), BatchMeans.throughputHalf(seconds), 1e-9);
        // latencies 200, 210, 220, 230, 240: sd 15.81
        assertEquals(2.776 * Math.sqrt(250) / Math.sqrt(5), BatchMeans.latencyHalf(seconds), 1e-9);
    }

    @Test
    void aWindowShorterThanThreeBatchesGivesNoInterval() {
        List<Second> seconds = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            seconds.add(Second.of(i + 1, false, 100 + i));
        }
        assertTrue(Double.isNaN(BatchMeans.throughputHalf(seconds)));
        assertTrue(Double.isNaN(BatchMeans.throughputHalf(null)));
    }

    /**
     * Two single runs 2 % apart whose seconds scatter by +-30 %: their intervals overlap, a tie (a
     * point to each); the same means with steady seconds: a decided place.
     */
    @Test
    void singleRunsWithinTheirNoiseTieAndSteadyOnesDoNot(@TempDir Path noisy, @TempDir Path steady) throws Exception {
        runWithSeconds(noisy, "flink", "cassandra", "update", 1, scattered(1000, 300), null);
        runWithSeconds(noisy, "spark", "cassandra", "update", 1, scattered(980, 300), null);
        Scores.Points tied = Report.of(noisy).scores().table1();
        assertEquals(Map.of("cassandra", 1), tied.byEngineAndDatabase().get("flink"));
        assertEquals(Map.of("cassandra", 1), tied.byEngineAndDatabase().get("spark"), "within the noise: a tie");
        assertEquals(0, tied.decided());
        assertEquals(1, tied.tied());
        assertTrue(Report.of(noisy).scores().table3().values().stream().noneMatch(Scores::firstPlaceDecided));

        runWithSeconds(steady, "flink", "cassandra", "update", 1, scattered(1000, 2), null);
        runWithSeconds(steady, "spark", "cassandra", "update", 1, scattered(980, 2), null);
        Scores.Points decided = Report.of(steady).scores().table1();
        assertEquals(Map.of("cassandra", 1), decided.byEngineAndDatabase().get("flink"));
        assertEquals(Map.of("cassandra", 0), decided.byEngineAndDatabase().get("spark"));
        assertEquals(1, decided.decided());
    }

    /** 24 seconds around {@code mean}: batches of 4 s whose means differ by up to {@code spread}. */
    private static double[] scattered(double mean, double spread) {
        double[] offsets = {0, 1, -1, 0.5, -0.5, 0};
        double[] seconds = new double[24];
        for (int i = 0; i < seconds.length; i++) {
            seconds[i] = mean + spread * offsets[i / 4];
        }
        return seconds;
    }
}
