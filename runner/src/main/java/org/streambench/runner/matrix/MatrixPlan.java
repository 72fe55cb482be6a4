package org.streambench.runner.matrix;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The axes of a matrix and the order its cells run in: grouped by database, so each local server
 * starts once per group; within a group by engine, pattern, BLOB size, access mode and repetition, or in a
 * random order of the group when {@code shuffleSeed} is set (to expose drift over time).
 */
public record MatrixPlan(
        List<String> engines,
        List<String> databases,
        List<String> patterns,
        List<Integer> blobs,
        int repetitions,
        Long shuffleSeed,
        List<String> accesses) {

    public MatrixPlan {
        engines = List.copyOf(engines);
        databases = List.copyOf(databases);
        patterns = List.copyOf(patterns);
        blobs = List.copyOf(blobs);
        accesses = accesses == null ? List.of(Cell.SYNC) : List.copyOf(accesses);
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
                            for (int repetition = 1; repetition <= repetitions; repetition++) {
                                group.add(new Cell(engine, database, pattern, blob, access, repetition));
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
