package org.streambench.runner.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.streambench.model.CapacityDocument.Step;

/**
 * The highest input rate a pipeline sustains within an objective: a search over full runs at fixed
 * rates ({@link Pipeline}), each one a step that passes or fails ({@link #judge}).
 * <p>
 * The search starts from an unthrottled probe's throughput T (what the pipeline does when it is
 * never held back) and tries 0.9 T first. While no rate has passed it goes to 0.95 of what the
 * failed step processed, when that fell short of its target, and else halves the rate (a pipeline
 * whose latency objective is tight may pass only far below T); once one has, it bisects between
 * the highest rate that passed and the lowest that failed, until they are within {@code tolerance}
 * of each other. This is sound when passing is monotone in the rate (a pipeline that keeps up, within
 * the objective, at a rate also does at any lower one), which holds for a queue in front of a
 * server until it saturates; the steps are kept, so a non-monotone curve shows in them. The search
 * always ends: after {@link Bounds#maxSteps} steps, after {@link Bounds#maxNanos}, when the bracket is
 * narrow enough, or when the rate falls below one record per second (no rate met the objective).
 */
public final class CapacitySearch {

    /** Where the first step goes, relative to the probe's throughput. */
    static final double FIRST_STEP = 0.9;
    /** A rate above this share of the probe is taken to fail without running it: the bracket's top. */
    static final double ABOVE_PROBE = 1.05;
    /** A step passes only if the pipeline processed at least this share of its target. */
    static final double ACHIEVED_SHARE = 0.99;

    /** After a step that fell short of its target, the next one goes to this share of what it processed. */
    static final double BELOW_PROCESSED = 0.95;

    static final double LOWEST_RATE = 1;

    /** What a step must meet: the records' end-to-end p99, and not falling behind the schedule. */
    public record Objective(long p99Micros) {
        public String describe() {
            return String.format(
                    Locale.ROOT,
                    "end-to-end p99 <= %s, at least 99 %% of the target rate processed," + " no growing backlog",
                    human(p99Micros));
        }

        /** The latency part alone, e.g. {@code p99 <= 50.0 ms}. */
        public String brief() {
            return "p99 <= " + human(p99Micros);
        }
    }

    /** How long a search may go on. */
    public record Bounds(int maxSteps, long maxNanos, double tolerance) {}

    /** One full run at a fixed rate. */
    public interface Pipeline {
        Step run(double rate) throws Exception;
    }

    /**
     * A step as a run measured it: the target rate, what was processed, the records' end-to-end
     * latency, whether the run fell behind and whether it ran ok, judged against {@code objective}:
     * its verdict and the reason for it.
     */
    public static Step judge(
            double target,
            double achieved,
            Long p50,
            Long p99,
            Long max,
            boolean behind,
            String runError,
            String folder,
            Objective objective) {
        String why;
        if (runError != null) {
            why = "the run failed: " + runError;
        } else if (achieved < ACHIEVED_SHARE * target) {
            why = String.format(Locale.ROOT, "processed %,.0f/s, below 99 %% of the target", achieved);
        } else if (behind) {
            why = "fell behind: the records emitted but not processed yet kept growing";
        } else if (p99 == null) {
            why = "no end-to-end latency was measured";
        } else if (p99 > objective.p99Micros()) {
            why = "p99 " + human(p99) + " above the objective " + human(objective.p99Micros());
        } else {
            why = "p99 " + human(p99) + " within " + human(objective.p99Micros());
        }
        boolean passed = runError == null
                && achieved >= ACHIEVED_SHARE * target
                && !behind
                && p99 != null
                && p99 <= objective.p99Micros();
        return new Step(target, achieved, p50, p99, max, behind, runError, passed, why, folder);
    }

    /** The search's outcome: the highest rate that passed (null: none), every step, and why it stopped. */
    public record Result(double probeThroughput, Double capacity, List<Step> steps, String stopReason) {}

    private CapacitySearch() {}

    public static Result search(
            double probeThroughput, Pipeline pipeline, Bounds bounds, LongSupplier clock, StepListener listener)
            throws Exception {
        long start = clock.getAsLong();
        List<Step> steps = new ArrayList<>();
        double lo = 0;
        double hi = ABOVE_PROBE * probeThroughput;
        double rate = Math.max(LOWEST_RATE, Math.floor(FIRST_STEP * probeThroughput));
        String stop;
        while (true) {
            if (steps.size() >= bounds.maxSteps()) {
                stop = "the most steps, " + bounds.maxSteps();
                break;
            }
            if (clock.getAsLong() - start >= bounds.maxNanos()) {
                stop = "the longest search time";
                break;
            }
            Step step = pipeline.run(rate);
            steps.add(step);
            listener.finished(steps.size(), step);
            if (step.passed()) {
                lo = rate;
            } else {
                hi = rate;
            }
            if (lo > 0 && (hi - lo) / hi <= bounds.tolerance()) {
                stop = String.format(
                        Locale.ROOT,
                        "the highest pass and the lowest failure within %.0f %%",
                        bounds.tolerance() * 100);
                break;
            }
            double next = lo > 0 ? Math.floor((lo + hi) / 2) : belowAFailure(step);
            if (next < LOWEST_RATE || next == rate) {
                stop = lo > 0
                        ? "the rates cannot be told apart any closer"
                        : "no rate from 1 record/s met the objective";
                break;
            }
            rate = next;
        }
        return new Result(probeThroughput, lo > 0 ? lo : null, List.copyOf(steps), stop);
    }

    /**
     * The next rate while nothing has passed: half the failed one, or, when the failed step processed
     * less than its target, just below what it did process (a pipeline that kept up with 1,400 of
     * 1,600 records/s is tried at 1,330, not 800).
     */
    static double belowAFailure(Step failed) {
        double half = Math.floor(failed.target() / 2);
        return failed.achieved() < ACHIEVED_SHARE * failed.target()
                ? Math.max(half, Math.floor(BELOW_PROCESSED * failed.achieved()))
                : half;
    }

    /** Hears of every step as it ends (the progress line). */
    public interface StepListener {
        void finished(int number, Step step);
    }

    static String human(long micros) {
        return micros >= 1000 ? String.format(Locale.ROOT, "%.1f ms", micros / 1000.0) : micros + " µs";
    }
}
