package org.streambench.runner.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.model.RunDocument;
import org.streambench.model.RunDocument.Second;

/** When a throttled run counts as behind its target, on hand-made per-second rows. */
class RateTest {

    private static List<Second> rows(long[] generated, long[] processed) {
        List<Second> rows = new ArrayList<>();
        rows.add(new Second(0, 0, 1.0, true, 0, 0, 0, null, 0, Map.of())); // warm-up: not counted
        for (int i = 0; i < generated.length; i++) {
            rows.add(new Second(i + 1, 0, 1.0, false, processed[i], generated[i], 0, null, 0, Map.of()));
        }
        return rows;
    }

    @Test
    void anUnthrottledRunHasNoRate() {
        assertNull(WindowStatistics.rate(0, rows(new long[] {5}, new long[] {5})));
    }

    @Test
    void aMicroBatchEngineOnScheduleIsNotBehind() {
        // 1,000/s generated; processed a batch of 2,000 every other second
        RunDocument.Rate rate =
                WindowStatistics.rate(1000, rows(new long[] {1000, 1000, 1000, 1000}, new long[] {0, 2000, 0, 1000}));
        assertEquals(1000, rate.generated(), 1e-9);
        assertEquals(750, rate.processed(), 1e-9);
        assertFalse(rate.behind(), "a backlog of one batch is allowed");
    }

    @Test
    void generatorsShortOfTheTargetAreBehind() {
        RunDocument.Rate rate =
                WindowStatistics.rate(1000, rows(new long[] {985, 985, 985, 985}, new long[] {985, 985, 985, 985}));
        assertTrue(rate.behind(), "1.5 % short");
        assertFalse(
                WindowStatistics.rate(1000, rows(new long[] {995, 995}, new long[] {995, 995}))
                        .behind(),
                "0.5 % short is on time");
    }

    @Test
    void aGrowingBacklogIsBehindEvenWhenTheGeneratorsAreOnTime() {
        long[] generated = new long[30];
        long[] processed = new long[30];
        Arrays.fill(generated, 1000);
        Arrays.fill(processed, 900); // 100/s more every second: 3,000 after 30 s
        assertTrue(WindowStatistics.rate(1000, rows(generated, processed)).behind());
        Arrays.fill(processed, 995); // 150 after 30 s: within 1 % of the window's 30,000
        assertFalse(WindowStatistics.rate(1000, rows(generated, processed)).behind());
    }
}
