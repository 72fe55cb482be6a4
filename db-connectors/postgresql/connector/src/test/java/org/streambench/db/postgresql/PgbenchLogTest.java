package org.streambench.db.postgresql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** pgbench's per-thread transaction logs, read into latencies and counts per script. */
class PgbenchLogTest {

    @Test
    void readsEveryThreadsLogIntoPercentilesAndCountsPerScript(@TempDir Path dir) throws Exception {
        // client transaction latency_us script epoch_s epoch_us
        StringBuilder first = new StringBuilder();
        for (int i = 1; i <= 90; i++) {
            first.append("0 ")
                    .append(i)
                    .append(' ')
                    .append(i * 10)
                    .append(" 0 1700000000 ")
                    .append(i)
                    .append('\n');
        }
        Files.writeString(dir.resolve("pgbench-log.4242"), first);
        StringBuilder second = new StringBuilder();
        for (int i = 91; i <= 100; i++) {
            second.append("1 ")
                    .append(i)
                    .append(' ')
                    .append(i * 10)
                    .append(" 1 1700000000 ")
                    .append(i)
                    .append('\n');
        }
        Files.writeString(dir.resolve("pgbench-log.4242.1"), second);
        Files.writeString(dir.resolve("pgbench.out"), "not a log\n");

        PgbenchCeiling.Log log = PgbenchCeiling.Log.read(dir, "pgbench-log");

        assertEquals(100, log.transactions());
        assertEquals(90, log.ofScript(0));
        assertEquals(10, log.ofScript(1));
        assertEquals(500, log.percentile(50));
        assertEquals(990, log.percentile(99));
        assertEquals(1000, log.percentile(100));
        assertEquals(505.0, log.mean());
    }
}
