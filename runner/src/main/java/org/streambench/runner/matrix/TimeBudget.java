package org.streambench.runner.matrix;

import java.util.Locale;
import org.streambench.local.UserError;

/**
 * Sizes a matrix's measured window so that all its experiments fit in a wall-time budget: each
 * experiment gets an equal share of the budget, less its longest warm-up and the overhead an
 * experiment costs besides (server start, reset, prefill, job start, stop, verification). Every
 * cell gets the same window, so their per-second statistics stay comparable.
 */
public final class TimeBudget {

    /** Shorter windows hold too few per-second samples for a mean, a deviation and a trend test. */
    public static final int MIN_MEASURED_SECONDS = 10;
    /** What a cell costs besides its warm-up and measured window (job JVM start, reset, prefill, stop, verify), until measured. */
    public static final int ESTIMATED_OVERHEAD_SECONDS = 20;
    /** The same on YARN, where the job's first record comes some 13 s later than a local job JVM's (its containers start). */
    public static final int ESTIMATED_YARN_OVERHEAD_SECONDS = 35;

    private TimeBudget() {}

    /** The measured seconds per experiment; a budget that leaves less than the minimum is refused. */
    public static int measuredSeconds(long budgetSeconds, int experiments, int warmupSeconds, int overheadSeconds) {
        if (experiments < 1) {
            throw new IllegalArgumentException("no experiment to fit");
        }
        long share = budgetSeconds / experiments;
        long measured = share - warmupSeconds - overheadSeconds;
        if (measured < MIN_MEASURED_SECONDS) {
            long needed = (long) experiments * (MIN_MEASURED_SECONDS + warmupSeconds + overheadSeconds);
            throw new UserError(String.format(
                    Locale.ROOT,
                    "--time-budget %s leaves %d s per experiment for %d experiments, less than a warm-up of at most"
                            + " %d s + %d s measured + about %d s of overhead; give at least %s, a shorter --warmup"
                            + " or fewer experiments",
                    human(budgetSeconds),
                    share,
                    experiments,
                    warmupSeconds,
                    MIN_MEASURED_SECONDS,
                    overheadSeconds,
                    human(needed)));
        }
        return (int) Math.min(measured, Integer.MAX_VALUE);
    }

    /** A wall time as people read it: "45 s", "12 min", "4 h 05 min". */
    public static String human(long seconds) {
        if (seconds < 60) {
            return seconds + " s";
        }
        long minutes = Math.round(seconds / 60.0);
        return minutes < 60
                ? minutes + " min"
                : String.format(Locale.ROOT, "%d h %02d min", minutes / 60, minutes % 60);
    }
}
