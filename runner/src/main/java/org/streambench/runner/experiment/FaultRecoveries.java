package org.streambench.runner.experiment;

import java.util.List;
import org.streambench.model.RunDocument.FaultRecovery;
import org.streambench.model.RunDocument.Second;

/** How a run's throughput went through its injected fault, read from its per-second series. */
final class FaultRecoveries {

    /** Intervals before the fault that make its throughput before. */
    static final int BEFORE_INTERVALS = 10;
    /** The share of the throughput before that counts as recovered. */
    static final double RECOVERED_SHARE = 0.9;

    private FaultRecoveries() {}

    /** The fault that fired at {@code injectedAtEpochMillis} (the job's clock) against {@code seconds}; null without a series after it. */
    static FaultRecovery of(List<Second> seconds, long injectedAtEpochMillis) {
        int fault = 0;
        while (fault < seconds.size() && seconds.get(fault).epochMillis() < injectedAtEpochMillis) {
            fault++;
        }
        if (fault == seconds.size()) {
            return null;
        }
        List<Second> before = seconds.subList(Math.max(1, fault - BEFORE_INTERVALS), Math.max(1, fault));
        Double rateBefore = before.isEmpty()
                ? null
                : before.stream().mapToLong(Second::records).sum()
                        / before.stream().mapToDouble(Second::intervalSeconds).sum();
        double lowest = Double.MAX_VALUE;
        Double recovery = null;
        for (int i = fault; i < seconds.size(); i++) {
            lowest = Math.min(lowest, rate(seconds.get(i)));
            // the fault's own interval holds the records before the fault too: a fault late in it shows in the next one
            if (rateBefore != null
                    && recovered(seconds.get(i), rateBefore)
                    && (i + 1 == seconds.size() || recovered(seconds.get(i + 1), rateBefore))) {
                recovery = (seconds.get(i).epochMillis() - injectedAtEpochMillis) / 1000.0;
                break;
            }
        }
        return new FaultRecovery(injectedAtEpochMillis, seconds.get(fault).second(), rateBefore, lowest, recovery);
    }

    private static boolean recovered(Second second, double rateBefore) {
        return rate(second) >= RECOVERED_SHARE * rateBefore;
    }

    private static double rate(Second second) {
        return second.intervalSeconds() > 0 ? second.records() / second.intervalSeconds() : 0;
    }
}
