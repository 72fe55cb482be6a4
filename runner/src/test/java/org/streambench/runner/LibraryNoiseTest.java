package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.servers.TestServers;

/**
 * The bench CLI prints the suite's own lines, not a library's: no logger's warnings (HBase's client
 * brings Hadoop's and ZooKeeper's), no logging library's complaint about another on the classpath
 * (spring-jcl's about commons-logging, once). Only the bench JVM's own console shows them, so bench
 * is a process of its own here, run against the HBase server the test JVM shares.
 */
@Tag("integration")
class LibraryNoiseTest {

    private static final Pattern LIBRARY_LINE = Pattern.compile(
            "^(SLF4J:|log4j:|WARNING:|\\[[^\\]]+\\] (TRACE|DEBUG|INFO|WARN|ERROR) )|(?i)commons.logging");

    @Test
    void aRunAgainstHbasePrintsNoLibrarysLine(@TempDir Path tmp) throws Exception {
        int port = TestServers.start("hbase").port();
        Path log = tmp.resolve("run.log");
        Process bench = Processes.bench(
                TestServers.WORK,
                log,
                "run",
                "--db",
                "hbase",
                "--db-port",
                Integer.toString(port),
                "--pattern",
                "read",
                "--blob",
                "100",
                "--keys",
                "10",
                "--records",
                "10",
                "--metrics-port",
                "0",
                "--out",
                tmp.resolve("run").toString());
        try {
            assertTrue(bench.waitFor(120, TimeUnit.SECONDS), "bench did not end: " + Files.readString(log));
            String output = Files.readString(log);
            assertEquals(0, bench.exitValue(), output);
            assertTrue(output.contains(", 0 mismatches"), output);
            List<String> libraryLines = output.lines()
                    .filter(line -> LIBRARY_LINE.matcher(line).find())
                    .toList();
            assertEquals(List.of(), libraryLines, "lines a library printed");
        } finally {
            bench.destroyForcibly();
        }
    }
}
