package org.streambench.runner.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.streambench.local.UserError;

class TimeBudgetTest {

    @Test
    void eachExperimentIsMeasuredForItsShareLessItsWarmupAndOverhead() {
        // the study's 180 experiments in 4 h: 80 s each, 15 s of it warm-up at most, 20 s overhead
        assertEquals(45, TimeBudget.measuredSeconds(4 * 3600, 180, 15, 20));
        // a share that does not divide evenly is rounded down, so the sum stays within the budget
        assertEquals(10, TimeBudget.measuredSeconds(62, 2, 1, 20));
        assertEquals(10, TimeBudget.measuredSeconds(63, 2, 1, 20));
    }

    @Test
    void aBudgetThatLeavesLessThanTheMinimumWindowIsRefusedWithWhatWouldFit() {
        assertEquals(
                TimeBudget.MIN_MEASURED_SECONDS,
                TimeBudget.measuredSeconds(180L * (30 + 20 + TimeBudget.MIN_MEASURED_SECONDS), 180, 30, 20));
        UserError tooShort = assertThrows(
                UserError.class,
                () -> TimeBudget.measuredSeconds(180L * (30 + 20 + TimeBudget.MIN_MEASURED_SECONDS) - 1, 180, 30, 20));
        assertTrue(
                tooShort.getMessage()
                        .startsWith("--time-budget 3 h 00 min leaves 59 s per experiment for 180 experiments"),
                tooShort.getMessage());
        assertTrue(tooShort.getMessage().contains("give at least 3 h 00 min"), tooShort.getMessage());
    }

    @Test
    void wallTimesReadAsPeopleWriteThem() {
        assertEquals("45 s", TimeBudget.human(45));
        assertEquals("12 min", TimeBudget.human(12 * 60 + 20));
        assertEquals("4 h 05 min", TimeBudget.human(4 * 3600 + 5 * 60));
    }
}
