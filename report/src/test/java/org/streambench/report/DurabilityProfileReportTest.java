package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs against a server whose durability is not its vendor's default are never compared with the study silently. */
class DurabilityProfileReportTest {

    @Test
    void runsOfTheFastProfileAreCountedAtTheTop(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "insert", 1, 1, "ok", 1000, null, null, "fast");
        run(dir, "spark", "postgresql", "insert", 1, 1, "ok", 900, null, null, "default");

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);

        assertTrue(html.contains("1 of 2 runs used the fast durability profile (--db-profile fast)"), html);
    }

    @Test
    void runsOfTheDurableProfileAreCountedAtTheTop(@TempDir Path dir) throws Exception {
        run(dir, "flink", "redis", "update", 1, 1, "ok", 1000, null, null, "durable");
        run(dir, "spark", "redis", "update", 1, 1, "ok", 900, null, null, "durable");

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);

        assertTrue(html.contains("Every run used the durable profile (--db-profile durable)"), html);
        assertFalse(html.contains("fast durability profile"), html);
    }

    @Test
    void runsOfTheVendorDefaultsCarryNoSuchNote(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "insert", 1, 1, "ok", 1000, null);

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);

        assertFalse(html.contains("fast durability profile"), html);
        assertFalse(html.contains("durable profile"), html);
    }
}
