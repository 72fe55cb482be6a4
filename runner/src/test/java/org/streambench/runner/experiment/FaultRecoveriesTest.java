package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.model.RunDocument.FaultRecovery;
import org.streambench.model.RunDocument.Second;

class FaultRecoveriesTest {

    private static final long START = 1_764_000_000_000L;

    /** One-second intervals ending at START + i s, processing {@code records[i]}. */
    private static List<Second> series(long... records) {
        List<Second> seconds = new ArrayList<>();
        for (int i = 0; i < records.length; i++) {
            seconds.add(new Second(
                    i + 1, START + (i + 1) * 1000L, 1.0, false, records[i], records[i], 0, null, 0, Map.of()));
        }
        return seconds;
    }

    @Test
    void theThroughputBeforeLeavesOutTheFirstIntervalAndRecoveryEndsAtTheFirstIntervalBackAtNinetyPercent() {
        // second 1 is the engine's start; the fault fires 300 ms into second 4 (the interval ending at START + 4 s)
        List<Second> seconds = series(10, 1000, 1000, 400, 0, 850, 950, 1000);
        FaultRecovery recovery = FaultRecoveries.of(seconds, START + 3_300);
        assertEquals(4, recovery.second());
        assertEquals(1000.0, recovery.recordsPerSecondBefore(), 1e-9);
        assertEquals(0.0, recovery.lowestRecordsPerSecond(), 1e-9);
        // 850 is below 900; 950 (the interval ending at START + 7 s) is back
        assertEquals(3.7, recovery.recoverySeconds(), 1e-9);
    }

    @Test
    void aFaultLateInAFullIntervalIsRecoveredOnlyWhenTheIntervalsAfterItAreFullAgain() {
        List<Second> seconds = series(100, 1000, 1000, 1000, 0, 1000, 1000);
        FaultRecovery recovery = FaultRecoveries.of(seconds, START + 3_999);
        assertEquals(4, recovery.second());
        assertEquals(0.0, recovery.lowestRecordsPerSecond(), 1e-9);
        assertEquals(2.001, recovery.recoverySeconds(), 1e-9);
    }

    @Test
    void aPipelineThatNeverGetsBackHasNoRecoveryTime() {
        FaultRecovery recovery = FaultRecoveries.of(series(500, 1000, 1000, 100, 200, 300), START + 3_200);
        assertEquals(1000.0, recovery.recordsPerSecondBefore(), 1e-9);
        assertEquals(100.0, recovery.lowestRecordsPerSecond(), 1e-9);
        assertNull(recovery.recoverySeconds());
    }

    @Test
    void aFaultInTheFirstIntervalHasNoThroughputBeforeAndAFaultAfterTheSeriesNoRecovery() {
        FaultRecovery early = FaultRecoveries.of(series(100, 1000, 1000), START + 500);
        assertEquals(1, early.second());
        assertNull(early.recordsPerSecondBefore());
        assertNull(early.recoverySeconds());
        assertNull(FaultRecoveries.of(series(100, 1000), START + 5_000));
    }

    @Test
    void theThroughputBeforeIsOfTheLastTenIntervalsByTheirLength() {
        long[] records = new long[16];
        java.util.Arrays.fill(records, 0, 4, 100);
        java.util.Arrays.fill(records, 4, 14, 2000);
        records[14] = 0;
        records[15] = 1900;
        FaultRecovery recovery = FaultRecoveries.of(series(records), START + 14_100);
        assertEquals(2000.0, recovery.recordsPerSecondBefore(), 1e-9);
        assertEquals(1.9, recovery.recoverySeconds(), 1e-9);
    }
}
