package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** --access's forms, and the one form a mode is written back in (the spec file, result.json, a matrix's axis). */
class AccessModeTest {

    @Test
    void everyFormParsesAndIsWrittenBackInOneForm() {
        assertEquals(AccessMode.SYNC, AccessMode.parse(" sync "));
        assertEquals(new AccessMode(AccessMode.Kind.BATCH, 100, 20), AccessMode.parse("batch:100"));
        assertEquals(new AccessMode(AccessMode.Kind.BATCH, 500, 2000), AccessMode.parse("batch:500,linger=2s"));
        assertEquals(new AccessMode(AccessMode.Kind.ASYNC, 16, 0), AccessMode.parse("async:16"));
        for (String form : new String[] {"sync", "batch:100,linger=20ms", "async:16"}) {
            assertEquals(form, AccessMode.parse(form).toString());
        }
        assertEquals("batch:7,linger=20ms", AccessMode.parse("batch:7").toString());
    }

    @Test
    void aSizeOutOfRangeOrAFormOfNoModeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> AccessMode.parse("batch:0"));
        assertThrows(IllegalArgumentException.class, () -> AccessMode.parse("async:100001"));
        assertThrows(IllegalArgumentException.class, () -> AccessMode.parse("async:2,linger=5ms"));
        assertThrows(IllegalArgumentException.class, () -> AccessMode.parse("batch:10,linger=5h"));
        assertThrows(IllegalArgumentException.class, () -> AccessMode.parse(""));
    }
}
