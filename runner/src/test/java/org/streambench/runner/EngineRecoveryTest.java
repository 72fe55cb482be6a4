package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * An engine's recovery is named, never reported as a database failure. A starved Apex job JVM
 * (stopped with SIGSTOP twice, as a busy machine starves it) whose heartbeats come late used to be
 * redeployed by Apex's local cluster, which replayed its records: inserts of keys already written,
 * reported as "duplicate key" errors of the database. Locally, Apex's heartbeat monitoring is off
 * now (its containers are threads of one JVM), so the same stall passes; and where Apex does
 * redeploy (here provoked with a 3 s heartbeat timeout), the run ends at once with that cause.
 */
@Tag("integration")
@RunsAlone("stalls measured against heartbeat timeouts")
class EngineRecoveryTest {

    private static final int STALL_SECONDS = 6;
    private static final int STALLS = 2;

    @Test
    void aRedeployedApexOperatorEndsTheRunWithTheRealCause(@TempDir Path tmp) throws Exception {
        String output = stalledInsertRun(tmp, "--engine-setting", "heartbeatTimeoutMillis=3000");
        Map<String, Object> json = ResultFiles.read(tmp.resolve("run"));
        assertEquals("failed", json.get("status"), output);
        String error = (String) json.get("error");
        assertTrue(error.contains("apex redeployed the"), error);
        assertTrue(error.contains("the run is not comparable"), error);
        assertFalse(error.contains("duplicate key"), "the database is not blamed: " + error);
    }

    @Test
    void aStarvedApexJobIsNotRedeployedLocally(@TempDir Path tmp) throws Exception {
        String output = stalledInsertRun(tmp);
        Map<String, Object> json = ResultFiles.read(tmp.resolve("run"));
        assertEquals("ok", json.get("status"), output);
        assertEquals(0, ((Number) EndToEndTest.map(json, "verification").get("mismatches")).intValue());
    }

    /** An Apex insert run whose job JVM is stopped {@value #STALLS} times for {@value #STALL_SECONDS} s once records flow; its output. */
    private static String stalledInsertRun(Path tmp, String... extra) throws Exception {
        ServerState postgres = TestServers.start("postgresql");
        Path log = tmp.resolve("bench.log");
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--engine",
                "apex",
                "--db",
                "postgresql",
                "--db-url",
                postgres.settings().get("url"),
                "--db-user",
                postgres.settings().get("user"),
                "--db-password",
                postgres.settings().get("password"),
                "--pattern",
                "insert",
                "--blob",
                "100",
                "--duration",
                "20s",
                "--warmup",
                "1s",
                "--metrics-port",
                "0",
                "--out",
                tmp.resolve("run").toString()));
        args.addAll(List.of(extra));
        Process bench = Processes.bench(tmp.resolve("work"), log, args.toArray(String[]::new));
        try {
            Processes.awaitRecordsFlowing(bench, log);
            ProcessHandle job = Processes.jobJvm(bench.toHandle()).orElseThrow();
            // twice: after a stall, a container's heartbeat and the check for late ones race to run first
            for (int stall = 0; stall < STALLS && job.isAlive(); stall++) {
                Processes.signal("STOP", job);
                Thread.sleep(TimeUnit.SECONDS.toMillis(STALL_SECONDS));
                Processes.signal("CONT", job);
                Thread.sleep(2000);
            }
            assertTrue(bench.waitFor(120, TimeUnit.SECONDS), "the run did not end");
            return Files.readString(log);
        } finally {
            bench.toHandle().descendants().forEach(p -> {
                Processes.signal("CONT", p);
                p.destroyForcibly();
            });
            bench.destroyForcibly();
        }
    }
}
