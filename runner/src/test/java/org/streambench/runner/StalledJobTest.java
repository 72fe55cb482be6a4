package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.TestServers;

/**
 * A job JVM that stalls for longer than one scrape may take (stopped with SIGSTOP, as a long
 * pause or a starved CPU would stop it) but for less than a worker may stay silent: the run goes
 * on and ends ok, instead of failing with "the job's metrics endpoint stopped answering".
 */
@Tag("integration")
@RunsAlone("a stall measured against the worker silence bound")
class StalledJobTest {

    private static final int STALL_SECONDS = 8;

    @Test
    void aJobThatStallsForLessThanTheWorkerSilenceBoundStillFinishesItsRun(@TempDir Path tmp) throws Exception {
        int metricsPort = TestServers.freePort();
        Path out = tmp.resolve("run");
        Path log = tmp.resolve("bench.log");
        Process bench = Processes.bench(
                tmp.resolve("work"),
                log,
                "run",
                "--engine",
                "flink",
                "--db",
                "noop",
                "--pattern",
                "insert",
                "--duration",
                "12s",
                "--warmup",
                "1s",
                "--metrics-port",
                Integer.toString(metricsPort),
                "--out",
                out.toString());
        try {
            Processes.awaitRecordsFlowing(bench, log);
            ProcessHandle job = Processes.jobJvm(bench.toHandle()).orElseThrow();
            Processes.signal("STOP", job);
            Thread.sleep(TimeUnit.SECONDS.toMillis(STALL_SECONDS));
            Processes.signal("CONT", job);

            assertTrue(bench.waitFor(120, TimeUnit.SECONDS), "the run did not end");
            String output = Files.readString(log);
            assertEquals(0, bench.exitValue(), output);
            assertTrue(output.contains("did not answer in time; asking again"), output);
            Map<String, Object> json = ResultFiles.read(out);
            assertEquals("ok", json.get("status"), output);
        } finally {
            bench.toHandle().descendants().forEach(p -> {
                Processes.signal("CONT", p);
                p.destroyForcibly();
            });
            bench.destroyForcibly();
        }
    }
}
