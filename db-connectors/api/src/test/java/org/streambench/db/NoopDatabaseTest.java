package org.streambench.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.generator.SensorRecord;

/** noop as a database of known cost: callCpuMicros spends that much of the calling thread's CPU on every call. */
class NoopDatabaseTest {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Test
    void everyCallSpendsTheConfiguredCpuTimeOfItsThread() {
        NoopDatabase noop = new NoopDatabase();
        noop.open(new DatabaseSettings(Map.of("callCpuMicros", "20000")));
        long before = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < 5; i++) {
            noop.update(new SensorRecord("sensor000001", 0, 0, 0, 0, 0, 0), new byte[0]);
        }
        double spentMillis = (THREADS.getCurrentThreadCpuTime() - before) / 1e6;
        assertTrue(spentMillis >= 100 && spentMillis < 130, "5 calls of 20 ms of CPU: " + spentMillis + " ms");
    }

    @Test
    void aCpuCostOutOfRangeIsRefusedBeforeAnythingStarts() {
        DatabaseException refused = assertThrows(DatabaseException.class, () -> new NoopDatabase.Provider()
                .checkSettings(new DatabaseSettings(Map.of("callCpuMicros", "-5"))));
        assertEquals(
                "noop setting callCpuMicros must be a whole number of microseconds from 0 to 10000000, not '-5'",
                refused.getMessage());
    }
}
