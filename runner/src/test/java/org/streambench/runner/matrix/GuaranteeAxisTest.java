package org.streambench.runner.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guarantee axis: the guarantee none is one cell (it takes no checkpoints), every other
 * guarantee one cell per checkpoint interval, each in a folder of its own, and a journal keeps them.
 */
class GuaranteeAxisTest {

    private static final MatrixPlan PLAN = new MatrixPlan(
            List.of("flink"),
            List.of("postgresql"),
            List.of("update"),
            List.of(1),
            1,
            null,
            List.of("sync"),
            List.of("none", "exactly-once", "at-least-once"),
            List.of("1s", "10s"),
            null);

    @Test
    void noneIsOneCellAndEveryOtherGuaranteeOnePerInterval() {
        assertEquals(
                List.of(
                        "flink/postgresql/update/1/rep-1",
                        "flink/postgresql/update/1/exactly-once-1s/rep-1",
                        "flink/postgresql/update/1/exactly-once-10s/rep-1",
                        "flink/postgresql/update/1/at-least-once-1s/rep-1",
                        "flink/postgresql/update/1/at-least-once-10s/rep-1"),
                PLAN.cells().stream().map(Cell::id).toList());
        assertEquals(null, PLAN.cells().get(0).checkpointInterval(), "none has no checkpoint interval");
    }

    @Test
    void aGuaranteeWithoutAnIntervalIsAMistakeOfTheCaller() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new MatrixPlan(
                        List.of("flink"),
                        List.of("postgresql"),
                        List.of("update"),
                        List.of(1),
                        1,
                        null,
                        null,
                        List.of("exactly-once"),
                        null,
                        null));
    }

    @Test
    void aJournalKeepsTheAxisAndEachCellsGuaranteeAndOnlyTheCellsItWasGiven(@TempDir Path dir) throws Exception {
        List<Cell> runnable = PLAN.cells().subList(0, 3);
        Journal.create(dir, PLAN, runnable, Map.of("keys", "10"), null);
        Journal read = Journal.read(dir);
        assertEquals(PLAN, read.plan());
        assertEquals(runnable, read.entries().stream().map(Journal.Entry::cell).toList());
    }
}
