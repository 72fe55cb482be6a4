package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Guarantee;

class CommitCadenceTest {

    private static Optional<String> note(
            String engine, Guarantee guarantee, int durationSeconds, long intervalMillis, long records) {
        return note(engine, guarantee, durationSeconds, intervalMillis, records, Map.of());
    }

    private static Optional<String> note(
            String engine,
            Guarantee guarantee,
            int durationSeconds,
            long intervalMillis,
            long records,
            Map<String, String> engineSettings) {
        ExperimentSpec spec = ExperimentSpec.builder(engine, "postgresql", Pattern.UPDATE)
                .durationSeconds(durationSeconds)
                .guarantee(guarantee)
                .checkpointIntervalMillis(intervalMillis)
                .recordsPerGenerator(records)
                .engineSettings(engineSettings)
                .build();
        return CommitCadence.note(spec, Engines.parse(engine));
    }

    @Test
    void flinksExactlyOnceWindowOfFewCheckpointsIsNamedWithTheWindowThatMeasuresItEvenly() {
        assertEquals(
                Optional.of("note: under exactly-once flink commits the records to the database once every 10 s, so"
                        + " the 24 s window holds 2 commits and its throughput and latencies show where they fell"
                        + " more than the pipeline's pace; a window of 5 commits (--duration 50s) measures it evenly"),
                note("flink", Guarantee.EXACTLY_ONCE, 24, 10_000, 0));
        assertEquals(
                Optional.of("note: under exactly-once flink commits the records to the database once every 2.5 s, so"
                        + " the 10 s window holds 4 commits and its throughput and latencies show where they fell"
                        + " more than the pipeline's pace; a window of 5 commits (--duration 13s) measures it evenly"),
                note("flink", Guarantee.EXACTLY_ONCE, 10, 2_500, 0));
    }

    /** Spark commits with each micro-batch and Apex with each streaming window, whatever the checkpoint interval. */
    @Test
    void sparkAndApexCommitAtTheirOwnCadence() {
        assertEquals(Optional.empty(), note("spark", Guarantee.EXACTLY_ONCE, 24, 10_000, 0));
        assertEquals(Optional.empty(), note("apex", Guarantee.EXACTLY_ONCE, 24, 10_000, 0));
        assertEquals(
                "note: under exactly-once spark commits the records to the database once every 5 s, so the 10 s",
                note("spark", Guarantee.EXACTLY_ONCE, 10, 500, 0, Map.of("batchIntervalMillis", "5000"))
                        .orElseThrow()
                        .substring(0, 94));
    }

    @Test
    void aWindowOfEnoughCommitsCommitsEverySecondOtherGuaranteesAndBoundedRunsSayNothing() {
        assertEquals(Optional.empty(), note("flink", Guarantee.EXACTLY_ONCE, 50, 10_000, 0));
        assertEquals(Optional.empty(), note("flink", Guarantee.EXACTLY_ONCE, 4, 1_000, 0));
        assertEquals(Optional.empty(), note("flink", Guarantee.AT_LEAST_ONCE, 24, 10_000, 0));
        assertEquals(Optional.empty(), note("flink", Guarantee.NONE, 24, 10_000, 0));
        assertEquals(Optional.empty(), note("flink", Guarantee.EXACTLY_ONCE, 24, 10_000, 400));
    }
}
