package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServers;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * A job whose database disappears mid-run: the run ends at the first failed call, with an error in
 * the summary and the result file that says the database stopped answering.
 */
@Tag("integration")
class JobFailureTest {

    @Test
    void aDatabaseThatDisappearsMidRunFailsTheRunInsteadOfHanging(@TempDir Path tmp) throws Exception {
        // a server of its own, so stopping it disturbs no other test
        LocalServers servers = new LocalServers(tmp.resolve("work"), new PrintWriter(System.out, true));
        ServerState postgres = servers.start("postgresql", TestServers.freePort(), "--port", DbProfile.DEFAULT);
        Path passwordFile = tmp.resolve("password");
        Files.writeString(passwordFile, postgres.settings().get("password") + "\n");
        ExecutorService background = Executors.newSingleThreadExecutor();
        try {
            int metricsPort = TestServers.freePort();
            Path out = tmp.resolve("run");
            Future<CliResult> run = background.submit(() -> CliResult.bench(
                    "run",
                    "--engine",
                    "flink",
                    "--db",
                    "postgresql",
                    "--pattern",
                    "update",
                    "--blob",
                    "100",
                    "--duration",
                    "15s",
                    "--warmup",
                    "1s",
                    "--keys",
                    "1000",
                    "--metrics-port",
                    Integer.toString(metricsPort),
                    "--db-url",
                    postgres.settings().get("url"),
                    "--db-user",
                    "postgres",
                    "--db-password-file",
                    passwordFile.toString(),
                    "--out",
                    out.toString()));
            Processes.awaitRecords(metricsPort, 120);
            servers.stop("postgresql");
            CliResult result = run.get(150, TimeUnit.SECONDS);

            assertEquals(1, result.code(), result.toString());
            String summary = result.out()
                    .lines()
                    .filter(l -> l.startsWith("flink x postgresql"))
                    .findFirst()
                    .orElseThrow();
            assertTrue(summary.contains("FAILED") && summary.contains("a database call failed"), summary);
            Map<String, Object> json = ResultFiles.read(out);
            assertEquals("failed", json.get("status"));
            String error = String.valueOf(json.get("error"));
            assertTrue(error.contains("postgresql") && error.contains("the database stopped answering"), error);
            long errors = ((Number) EndToEndTest.map(json, "counts").get("errors")).longValue();
            assertEquals(1, errors, "the first failed call ends the run, no hammering: " + json.get("counts"));
        } finally {
            background.shutdownNow();
            servers.stop("postgresql");
        }
    }
}
