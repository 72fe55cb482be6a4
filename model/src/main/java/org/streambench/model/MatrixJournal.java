package org.streambench.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * A matrix's journal, {@code matrix.json}, field for field: the matrix runner writes it after
 * every change and reads it to resume, the report reads it to tell an unfinished matrix; both go
 * through {@link JournalJson}. {@code settings}: what every cell runs with besides the axes, keyed
 * as a {@code --spec} file is (option names without --; a value, {@code true} for a switch, or a
 * mapping for KEY=VALUE options); {@code spec}: the first cell's spec as those settings gave it
 * when the matrix started, so a resume can tell that it would run the cells differently;
 * {@code options}: layouts 1 and 2 only, the settings as command-line arguments;
 * {@code summary}: how many cells are in each state.
 */
public record MatrixJournal(
        int version,
        String createdAt,
        Plan plan,
        Map<String, Object> settings,
        RunDocument.Spec spec,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<String> options,
        Map<String, Long> summary,
        List<CellEntry> cells) {

    public static final String FILE = "matrix.json";
    /**
     * The journal layout this code writes and reads: 2 added the access-mode axis (plan.accesses,
     * each cell's access; a layout 1 journal reads as a matrix of sync cells); 3 stores the settings
     * by name and the first cell's spec instead of command-line arguments (a layout 1 or 2 journal's
     * arguments are read as settings and written back in layout 3); 4 added the guarantee axis
     * (plan.guarantees and plan.checkpointIntervals, each cell's guarantee and checkpointInterval;
     * an older journal reads as a matrix without guarantees); 5 added the setting axes
     * (plan.settingAxes, each cell's settings; an older journal reads as a matrix without them).
     */
    public static final int VERSION = 5;

    public MatrixJournal {
        if (version == 0) { // a journal without it: written before it was introduced, in layout 1
            version = 1;
        }
    }

    /**
     * The axes and repetitions; {@code shuffleSeed} null for the fixed order; {@code accesses} the
     * access modes (null in a journal written before the axis existed: sync only); {@code guarantees}
     * and {@code checkpointIntervals} as {@code --guarantees} and {@code --checkpoint-intervals}
     * take them (null before layout 4: none only); {@code settingAxes} each setting axis's values by
     * the run option it sets, e.g. {@code keys: [10000, 1000000]} (null without setting axes).
     */
    public record Plan(
            List<String> engines,
            List<String> databases,
            List<String> patterns,
            List<Integer> blobs,
            int repetitions,
            Long shuffleSeed,
            List<String> accesses,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> guarantees,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<String> checkpointIntervals,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, List<String>> settingAxes) {}

    /**
     * One planned experiment and how it went. {@code state}: pending, running (from just before its
     * run starts until its result is in), ok or failed (with its {@code reason});
     * {@code measuredSeconds}: warm-up plus measured window; {@code overheadSeconds}: the rest of
     * its wall time; {@code phaseSeconds}: where that went, phase by phase; {@code access} its access
     * mode (null in a journal written before the access axis existed: sync); {@code guarantee} and
     * {@code checkpointInterval} its guarantee and interval (null before layout 4: none; the
     * interval null for none); {@code settings} its value of each setting axis (null without them).
     */
    public record CellEntry(
            String id,
            String engine,
            String database,
            String pattern,
            int blobBytes,
            int repetition,
            String state,
            String reason,
            int attempts,
            String startedAt,
            Double wallSeconds,
            Double measuredSeconds,
            Double overheadSeconds,
            Double throughput,
            Map<String, Double> phaseSeconds,
            String access,
            @JsonInclude(JsonInclude.Include.NON_NULL) String guarantee,
            @JsonInclude(JsonInclude.Include.NON_NULL) String checkpointInterval,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> settings) {}
}
