package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;

/** A run's failure reaches the runner, result.json and the matrix's journal as one line, whatever the database said. */
class FailureLineTest {

    @Test
    void aDatabasesMessageOverSeveralLinesFailsTheRunInOne() throws Exception {
        ExperimentSpec spec = ExperimentSpec.builder("test", "noop", Pattern.INSERT)
                .durationSeconds(2)
                .keys(10)
                .seed(7)
                .runToken(11)
                .metricsHost("127.0.0.1")
                .build();
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            runtime.onFailure(reason -> {});
            runtime.fail("org.postgresql.util.PSQLException: ERROR: relation \"sensor_records\" does not exist\n"
                    + "  Position: 13\n\n");
            assertEquals(
                    "org.postgresql.util.PSQLException: ERROR: relation \"sensor_records\" does not exist; Position: 13",
                    runtime.failure());
        }
    }
}
