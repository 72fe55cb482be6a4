package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The spec travels to the job as text: every field arrives as sent, the password never travels in it. */
class ExperimentSpecTest {

    private static final ExperimentSpec EVERY_FIELD_SET = ExperimentSpecs.EVERY_FIELD_SET;

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
