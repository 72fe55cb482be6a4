package org.streambench.runner.capacity;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.streambench.local.UserError;
import org.streambench.runner.experiment.Inputs;

/** A capacity search's objective and bounds as bench capacity and bench matrix --capacity take them, checked. */
public final class CapacityInputs {

    public static final String DEFAULT_MAX_STEPS = "8";
    public static final String DEFAULT_MAX_TIME = "30m";
    /** A search ends once the highest rate that passed and the lowest that failed are this share of the latter apart. */
    public static final double TOLERANCE = 0.05;

    private static final Pattern SLO = Pattern.compile("p99=(\\d+(?:\\.\\d+)?)(us|µs|ms|s)");

    private CapacityInputs() {}

    public static CapacitySearch.Bounds bounds(String maxSteps, String maxTime) {
        int steps = Inputs.positiveInt("--max-steps", maxSteps, "");
        int maxSeconds = Inputs.seconds("--max-time", maxTime);
        if (maxSeconds < 1) {
            throw new UserError("--max-time '" + maxTime + "' leaves no time for a step; give at least 1s");
        }
        return new CapacitySearch.Bounds(steps, TimeUnit.SECONDS.toNanos(maxSeconds), TOLERANCE);
    }

    /** The longest one parallelism's search may take within {@code bounds}, steps of {@code stepSeconds} each (--dry-run). */
    public static long longestSearchSeconds(CapacitySearch.Bounds bounds, long stepSeconds) {
        long maxSeconds = TimeUnit.NANOSECONDS.toSeconds(bounds.maxNanos());
        return Math.min(maxSeconds + stepSeconds, (bounds.maxSteps() + 1) * stepSeconds);
    }

    public static CapacitySearch.Objective objective(String text) {
        Matcher m = SLO.matcher(text.trim());
        if (!m.matches()) {
            throw new UserError("--slo '" + text + "' must look like p99=50ms (a p99 of the end-to-end latency in us,"
                    + " ms or s)");
        }
        double value = Double.parseDouble(m.group(1));
        double micros =
                switch (m.group(2)) {
                    case "s" -> value * 1_000_000;
                    case "ms" -> value * 1_000;
                    default -> value;
                };
        if (micros < 1 || micros > 3_600_000_000.0) {
            throw new UserError("--slo '" + text + "' must be from 1 us to 1 hour");
        }
        return new CapacitySearch.Objective(Math.round(micros));
    }
}
