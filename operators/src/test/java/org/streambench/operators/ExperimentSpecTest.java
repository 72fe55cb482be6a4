package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;

/** The spec travels to the job as text: every field arrives as sent, the password never travels in it. */
class ExperimentSpecTest {

    private static final ExperimentSpec EVERY_FIELD_SET = ExperimentSpec.builder("spark", "mariadb", Pattern.MIXED)
            .blobBytes(10_000)
            .durationSeconds(45)
            .warmupSeconds(15)
            .rate(1234.5)
            .keys(2000)
            .parallelism(3)
            .generatorParallelism(2)
            .seed(99)
            .runToken(41)
            .recordsPerGenerator(500)
            .metricsHost("0.0.0.0")
            .metricsPort(9401)
            .collector("http://runner:4000/")
            .databaseSettings(Map.of("url", "jdbc:mariadb://db:3306/bench", "user", "bench"))
            .engineSettings(Map.of("batchIntervalMillis", "500"))
            .build();

    @Test
    void everyFieldSurvivesTheText() {
        assertEquals(EVERY_FIELD_SET, ExperimentSpec.fromText(EVERY_FIELD_SET.toText()));
    }

    @Test
    void theBuilderOfASpecBuildsTheSameSpec() {
        assertEquals(EVERY_FIELD_SET, EVERY_FIELD_SET.toBuilder().build());
        assertNotEquals(EVERY_FIELD_SET, EVERY_FIELD_SET.withRunToken(42));
        assertEquals(42, EVERY_FIELD_SET.withRunToken(42).runToken());
    }

    @Test
    void thePasswordStaysOutOfTheText() {
        Map<String, String> settings = new HashMap<>(EVERY_FIELD_SET.databaseSettings());
        settings.put("password", "s3cret-of-the-test");
        String text = EVERY_FIELD_SET.withDatabaseSettings(settings).toText();
        assertFalse(text.contains("s3cret-of-the-test"), text);
        assertEquals(
                EVERY_FIELD_SET.databaseSettings(),
                ExperimentSpec.fromText(text).databaseSettings());
    }
}
