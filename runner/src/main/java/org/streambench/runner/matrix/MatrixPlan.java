package org.streambench.runner.matrix;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.streambench.model.AccessModeName;

/**
 * The axes of a matrix and the order its cells run in: grouped by database, so each local server
 * starts once per group; within a group by engine, pattern, BLOB size, access mode, guarantee,
 * checkpoint interval, setting axes and repetition, or in a random order of the group when {@code shuffleSeed} is
 * set (to expose drift over time). The guarantee none has no checkpoints: it makes one cell, not one
 * per interval. {@code settingAxes}: the values of each {@link SettingAxis} by the run option it sets
 * (e.g. {@code keys}), in the order the axes vary; empty without them.
 */
public record MatrixPlan(
        List<String> engines,
        List<String> databases,
        List<String> patterns,
        List<Integer> blobs,
        int repetitions,
        Long shuffleSeed,
        List<String> accesses,
        List<String> guarantees,
        List<String> checkpointIntervals,
        Map<String, List<String>> settingAxes) {

    public MatrixPlan {
        engines = List.copyOf(engines);
        databases = List.copyOf(databases);
        patterns = List.copyOf(patterns);
        blobs = List.copyOf(blobs);
        accesses = accesses == null ? List.of(AccessModeName.SYNC) : List.copyOf(accesses);
        guarantees = guarantees == null ? List.of(Cell.NO_GUARANTEE) : List.copyOf(guarantees);
        checkpointIntervals = checkpointIntervals == null ? List.of() : List.copyOf(checkpointIntervals);
        if (checkpointIntervals.isEmpty() && !guarantees.stream().allMatch(Cell.NO_GUARANTEE::equals)) {
            throw new IllegalArgumentException("a guarantee other than none needs a checkpoint interval");
        }
        Map<String, List<String>> axes = new LinkedHashMap<>();
        if (settingAxes != null) {
            settingAxes.forEach((name, values) -> axes.put(name, List.copyOf(values)));
        }
        settingAxes = Collections.unmodifiableMap(axes);
    }

    /** A plan without guarantees, as the study's. */
    public MatrixPlan(
            List<String> engines,
            List<String> databases,
            List<String> patterns,
            List<Integer> blobs,
            int repetitions,
            Long shuffleSeed,
            List<String> accesses) {
        this(engines, databases, patterns, blobs, repetitions, shuffleSeed, accesses, null, null, null);
    }

    /** A plan of the study's access mode only, sync. */
    public MatrixPlan(
            List<String> engines,
            List<String> databases,
            List<String> patterns,
            List<Integer> blobs,
            int repetitions,
            Long shuffleSeed) {
        this(engines, databases, patterns, blobs, repetitions, shuffleSeed, null);
    }

    public List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        Random random = shuffleSeed == null ? null : new Random(shuffleSeed);
        for (String database : databases) {
            List<Cell> group = new ArrayList<>();
            for (String engine : engines) {
                for (String pattern : patterns) {
                    for (int blob : blobs) {
                        for (String access : accesses) {
                            for (String guarantee : guarantees) {
                                List<String> intervals = guarantee.equals(Cell.NO_GUARANTEE)
                                        ? Collections.singletonList(null)
                                        : checkpointIntervals;
                                for (String interval : intervals) {
                                    for (Map<String, String> settings : settingCombinations()) {
                                        for (int repetition = 1; repetition <= repetitions; repetition++) {
                                            group.add(new Cell(
                                                    engine,
                                                    database,
                                                    pattern,
                                                    blob,
                                                    access,
                                                    guarantee,
                                                    interval,
                                                    settings,
                                                    repetition));
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if (random != null) {
                Collections.shuffle(group, random);
            }
            cells.addAll(group);
        }
        return cells;
    }

    /** Every combination of one value per setting axis, the first axis varying slowest; one empty one without axes. */
    private List<Map<String, String>> settingCombinations() {
        List<Map<String, String>> combinations = List.of(Map.of());
        for (Map.Entry<String, List<String>> axis : settingAxes.entrySet()) {
            List<Map<String, String>> extended = new ArrayList<>();
            for (Map<String, String> combination : combinations) {
                for (String value : axis.getValue()) {
                    Map<String, String> settings = new LinkedHashMap<>(combination);
                    settings.put(axis.getKey(), value);
                    extended.add(settings);
                }
            }
            combinations = extended;
        }
        return combinations;
    }
}
