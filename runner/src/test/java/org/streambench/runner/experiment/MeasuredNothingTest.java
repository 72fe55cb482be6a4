package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.streambench.model.RunDocument.Second;

/** A run that ended as planned but measured nothing is never "ok". */
class MeasuredNothingTest {

    @Test
    void noMeasuredSecondOrNoRecordInThemIsAFailure() {
        assertEquals(
                "the run measured nothing: it ended before its first measured second",
                ExperimentRunner.measuredNothing(List.of(Second.of(1, true, 500), Second.of(2, true, 600))));
        assertEquals(
                "the run measured nothing: no record was processed in its 2 measured seconds",
                ExperimentRunner.measuredNothing(
                        List.of(Second.of(1, true, 500), Second.of(2, false, 0), Second.of(3, false, 0))));
        assertNull(ExperimentRunner.measuredNothing(List.of(Second.of(1, true, 0), Second.of(2, false, 7))));
    }
}
