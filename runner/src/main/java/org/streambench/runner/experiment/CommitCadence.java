package org.streambench.runner.experiment;

import java.util.Locale;
import java.util.Optional;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Guarantee;
import org.streambench.operators.engine.EngineProvider;

/**
 * Under exactly-once a record counts as processed when its commit makes its effect visible, so
 * the database takes the records in bursts, one commit per engine cadence (Flink's checkpoint
 * interval, Spark's micro-batch, Apex's streaming window). A commit more than a second apart
 * leaves most per-second samples empty, and a measured window of a few commits says more about
 * where they fell than about the pipeline: Flink with 10 s checkpoints processed 1,666 records/s
 * over a 24 s window where 2,000 a second were generated, every one of them committed.
 */
final class CommitCadence {

    /** The commits a measured window holds at least for its mean to be within a fifth. */
    static final int COMMITS_PER_WINDOW = 5;
    /** The runner samples once a second: commits at least this often fill every sample. */
    private static final long SAMPLE_MILLIS = 1000;

    private CommitCadence() {}

    /** A line for the user when {@code spec}'s window holds fewer than {@value #COMMITS_PER_WINDOW} commits of its engine. */
    static Optional<String> note(ExperimentSpec spec, EngineProvider engine) {
        if (spec.guarantee() != Guarantee.EXACTLY_ONCE || spec.bounded()) {
            return Optional.empty();
        }
        long commitMillis = engine.exactlyOnceCommitMillis(spec);
        long windowMillis = spec.durationSeconds() * 1000L;
        if (commitMillis <= SAMPLE_MILLIS || windowMillis >= COMMITS_PER_WINDOW * commitMillis) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "note: under exactly-once %s commits the records to the database once every %s, so the %d s"
                        + " window holds %d commits and its throughput and latencies show where they fell more than"
                        + " the pipeline's pace; a window of %d commits (--duration %ds) measures it evenly",
                engine.name(),
                seconds(commitMillis),
                spec.durationSeconds(),
                windowMillis / commitMillis,
                COMMITS_PER_WINDOW,
                (COMMITS_PER_WINDOW * commitMillis + 999) / 1000));
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + " s" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
