package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FaultTest {

    /** Each form reads into its kind, time and duration, and writes back in a form that reads the same. */
    @ParameterizedTest
    @CsvSource({
        "fail-task@10s, FAIL_TASK, 10000, 0, fail-task@10000ms",
        "fail-checkpoint@2500ms, FAIL_CHECKPOINT, 2500, 0, fail-checkpoint@2500ms",
        "kill-worker@30s, KILL_WORKER, 30000, 0, kill-worker@30000ms",
        "'kill-db@30s,down=10s', KILL_DB, 30000, 10000, 'kill-db@30000ms,down=10000ms'",
        "'freeze-db@3s,for=500ms', FREEZE_DB, 3000, 500, 'freeze-db@3000ms,for=500ms'",
    })
    void readsEachFormAndWritesItBack(String text, Fault.Kind kind, long after, long lasts, String written) {
        Fault fault = Fault.parse(text);
        assertEquals(kind, fault.kind());
        assertEquals(after, fault.afterMillis());
        assertEquals(lasts, fault.lastsMillis());
        assertEquals(after + lasts, fault.endMillis());
        assertEquals(written, fault.toString());
        assertEquals(fault, Fault.parse(fault.toString()));
        assertEquals(lasts > 0, kind.onDatabase());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "kill-db@3s",
                "freeze-db@3s,down=2s",
                "kill-db@3s,for=2s",
                "fail-task@3s,down=2s",
                "kill-db@3s,down=0s",
                "kill-db@3m,down=1s",
                "kill-worker@3s,down=1s",
                "kill-workers@3s"
            })
    void refusesAFormThatIsNotOne(String text) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Fault.parse(text));
        assertTrue(refused.getMessage().startsWith("--fault '" + text + "'"), refused.getMessage());
    }

    @Test
    void onlyTheRunnersFaultsLast() {
        assertThrows(IllegalArgumentException.class, () -> new Fault(Fault.Kind.KILL_DB, 1000));
        assertThrows(IllegalArgumentException.class, () -> new Fault(Fault.Kind.FAIL_TASK, 1000, 5));
        assertFalse(Fault.Kind.FAIL_CHECKPOINT.onDatabase());
    }
}
