package org.streambench.db.mariadb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The median from sysbench's latency histogram. */
class SysbenchOutputTest {

    @Test
    void theMedianIsTheBucketWhereHalfTheEventsAreReached() {
        String output =
                """
                Latency histogram (values are in milliseconds)
                       value  ------------- distribution ------------- count
                       0.150 |*                                        10
                       0.200 |**********************                   300
                       0.250 |****************************************  500
                       2.000 |*                                        10

                SQL statistics:
                """;
        // 820 events: the 410th lies in the 0.250 bucket (10 + 300 < 410 <= 810)
        assertEquals(250L, SysbenchCeiling.histogramMedianMicros(output));
        assertNull(SysbenchCeiling.histogramMedianMicros("no histogram"));
    }
}
