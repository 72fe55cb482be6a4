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
import org.streambench.runner.results.ResultFolder;
import org.streambench.servers.TestServers;

/**
 * One owner at a time: a second run is refused the local server a first run uses (it would reset
 * the schema under it, and the first would stop the server under the second), bench db stop is
 * refused a server a run uses, and a result folder that a command holds is refused to another.
 */
@Tag("integration")
class OwnershipTest {

    @Test
    void aSecondRunIsRefusedTheLocalServerAndTheFolderThatARunUses(@TempDir Path tmp) throws Exception {
        Path work = tmp.resolve("work");
        Path log = tmp.resolve("first.log");
        Process first = Processes.bench(
                work,
                log,
                "run",
                "--db",
                "postgresql",
                "--db-port",
                Integer.toString(TestServers.freePort()),
                "--duration",
                "8s",
                "--warmup",
                "1s",
                "--keys",
                "500",
                "--metrics-port",
                "0",
                "--out",
                tmp.resolve("first").toString());
        try {
            Processes.awaitRecordsFlowing(first, log);
            TestRuns.withWork(work, () -> {
                CliResult second = CliResult.bench(
                        "run",
                        "--db",
                        "postgresql",
                        "--duration",
                        "2s",
                        "--warmup",
                        "1s",
                        "--metrics-port",
                        "0",
                        "--out",
                        tmp.resolve("second").toString());
                assertEquals(2, second.code(), second.toString());
                assertEquals(1, second.err().strip().lines().count(), second.toString());
                assertTrue(
                        second.err()
                                .contains("the local postgresql server is in use by another bench (pid " + first.pid()
                                        + ")"),
                        second.toString());
                assertTrue(!Files.exists(tmp.resolve("second")), "the refused run wrote nothing");

                CliResult stop = CliResult.bench("db", "stop", "postgresql");
                assertEquals(2, stop.code(), stop.toString());
                assertTrue(stop.err().contains("is in use by a run"), stop.toString());
            });
            assertTrue(first.waitFor(120, TimeUnit.SECONDS), "the first run did not end");
            assertEquals(0, first.exitValue(), Files.readString(log));
            Map<String, Object> json = ResultFiles.read(tmp.resolve("first"));
            assertEquals("ok", json.get("status"), "the first run was left alone: " + Files.readString(log));
            assertTrue(!Files.exists(tmp.resolve("first").resolve(ResultFolder.LOCK)), "its claim is gone");
        } finally {
            first.destroyForcibly();
            first.waitFor(30, TimeUnit.SECONDS);
            TestRuns.withWork(work, () -> CliResult.bench("db", "stop", "postgresql"));
        }
    }

    @Test
    @SuppressWarnings("try") // the claim is held, unused, while another command asks for the folder
    void aResultFolderThatACommandHoldsIsRefusedToAnother(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("taken");
        try (ResultFolder held = ResultFolder.claimEmpty(out, "--out")) {
            TestRuns.withWork(tmp.resolve("work"), () -> {
                CliResult run = CliResult.bench(
                        "run",
                        "--db",
                        "noop",
                        "--duration",
                        "2s",
                        "--warmup",
                        "1s",
                        "--metrics-port",
                        "0",
                        "--out",
                        out.toString());
                assertEquals(2, run.code(), run.toString());
                assertTrue(run.err().contains("result folder " + out + " is in use by another bench"), run.toString());
            });
        }
        // released: the folder is empty again and a run may have it
        TestRuns.withWork(tmp.resolve("work"), () -> {
            CliResult run = CliResult.bench(
                    "run",
                    "--db",
                    "noop",
                    "--duration",
                    "2s",
                    "--warmup",
                    "1s",
                    "--metrics-port",
                    "0",
                    "--out",
                    out.toString());
            assertEquals(0, run.code(), run.toString());
        });
    }
}
