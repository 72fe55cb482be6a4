package org.streambench.servers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TestServersTest {

    @Test
    void oneTestJvmPerModuleHasOneWorkFolderWhateverItsForkNumber() {
        assertEquals("test-work", TestServers.workFolder("1", "1"));
        assertEquals("test-work", TestServers.workFolder("2", "1"), "a parallel reactor build's second fork");
    }

    @Test
    void severalTestJvmsAndJvmsStartedByTestsHaveAFolderPerForkNumber() {
        assertEquals("test-work", TestServers.workFolder("1", "2"));
        assertEquals("test-work-2", TestServers.workFolder("2", "2"));
        assertEquals("test-work-9", TestServers.workFolder("9", ""), "a test JVM that a test started itself");
    }

    @Test
    void anUnresolvedForkNumberIsRefused() {
        assertThrows(IllegalStateException.class, () -> TestServers.workFolder("${surefire.forkNumber}", "1"));
    }
}
