package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.operators.OperatorMetrics.ReadResult;

/** Each read is recorded once and shows up both in Prometheus's histograms and in the measurement window. */
class ReadLatencyExportTest {

    private static final String READ = JobProtocol.Meter.READ_LATENCY.exportedName();
    private static final String FAILED = JobProtocol.Meter.READ_FAILED_LATENCY.exportedName();

    private final OperatorMetrics metrics = new OperatorMetrics(
            ExperimentSpec.builder("test", "noop", Pattern.MIXED).build(), "w1", () -> 0);

    @Test
    void prometheusShowsEveryReadSinceTheStartByResult() {
        for (int i = 0; i < 3; i++) {
            metrics.recordRead(150_000, ReadResult.HIT);
        }
        metrics.recordRead(3_000_000, ReadResult.MISS);
        String text = metrics.scrape(); // a scrape between reads must not lose any
        metrics.recordRead(40_000, ReadResult.FAILED);

        text = metrics.scrape();
        assertEquals(3, value(text, READ + "_count", "hit"), text);
        assertEquals(1, value(text, READ + "_count", "miss"), text);
        assertEquals(1, value(text, FAILED + "_count", "failed"), text);
        assertEquals(0, value(text, READ + "_count", "failed"), text);
        assertEquals(3 * 150e-6, value(text, READ + "_sum", "hit"), 3 * 150e-6 * 0.001, text);
        assertEquals(3e-3, value(text, READ + "_sum", "miss"), 3e-3 * 0.001, text);

        Map<Double, Double> hitBuckets = buckets(text, "hit");
        assertEquals(0, hitBuckets.get(1e-4), text);
        assertEquals(3, hitBuckets.get(2e-4), text);
        assertEquals(3, hitBuckets.get(Double.POSITIVE_INFINITY), text);
        Map<Double, Double> missBuckets = buckets(text, "miss");
        assertEquals(0, missBuckets.get(2e-3), text);
        assertEquals(1, missBuckets.get(5e-3), text);
    }

    @Test
    void theWindowHoldsTheReadsSinceItsStartWhileThePrometheusTotalsKeepEveryRead() {
        metrics.recordRead(150_000, ReadResult.HIT);
        metrics.scrape();
        metrics.resetLatencyWindow();
        metrics.recordRead(2_000_000, ReadResult.HIT);
        metrics.recordRead(1_000_000, ReadResult.MISS);
        metrics.scrape();

        OperatorMetrics.LatencyWindow window = metrics.takeLatencyWindow();
        assertEquals(2, window.successful().getTotalCount());
        assertEquals(1, window.byResult().get(ReadResult.HIT).getTotalCount());
        assertTrue(window.byResult().get(ReadResult.HIT).getMinValue() >= 1_999_000);
        assertEquals(0, metrics.takeLatencyWindow().successful().getTotalCount(), "taking it starts a new one");
        assertEquals(2, value(metrics.scrape(), READ + "_count", "hit"));
    }

    /** The value of the line of {@code name} whose labels include {@code result}. */
    private static double value(String text, String name, String result) {
        for (String line : text.split("\n")) {
            if (line.startsWith(name + "{") && line.contains("result=\"" + result + "\"")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    private static Map<Double, Double> buckets(String text, String result) {
        Map<Double, Double> buckets = new TreeMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith(READ + "_bucket{") && line.contains("result=\"" + result + "\"")) {
                int le = line.indexOf("le=\"") + 4;
                String bound = line.substring(le, line.indexOf('"', le));
                buckets.put(
                        bound.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bound),
                        Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        return buckets;
    }
}
