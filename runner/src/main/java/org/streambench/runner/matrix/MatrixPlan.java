package org.streambench.runner.matrix;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The axes of a matrix and the order its cells run in: grouped by database, so each local server
 * starts once per group; within a group by engine, pattern, BLOB size, access mode, guarantee,
 * checkpoint interval and repetition, or in a random order of the group when {@code shuffleSeed} is
 * set (to expose drift over time). The guarantee none has no checkpoints: it makes one cell, not one
 * per interval.
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
        List<String> checkpointIntervals) {

    public MatrixPlan {
        engines = List.copyOf(engines);
        databases = List.copyOf(databases);
        patterns = List.copyOf(patterns);
        blobs = List.copyOf(blobs);
        accesses = accesses == null ? List.of(Cell.SYNC) : List.copyOf(accesses);
        guarantees = guarantees == null ? List.of(Cell.NO_GUARANTEE) : List.copyOf(guarantees);
        checkpointIntervals = checkpointIntervals == null ? List.of() : List.copyOf(checkpointIntervals);
        if (checkpointIntervals.isEmpty() && !guarantees.stream().allMatch(Cell.NO_GUARANTEE::equals)) {
            throw new IllegalArgumentException("a guarantee other than none needs a checkpoint interval");
        }
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
        this(engines, databases, patterns, blobs, repetitions, shuffleSeed, accesses, null, null);
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
                                    for (int repetition = 1; repetition <= repetitions; repetition++) {
                                        group.add(new Cell(
                                                engine,
                                                database,
                                                pattern,
                                                blob,
                                                access,
                                                guarantee,
                                                interval,
                                                repetition));
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
}
