package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test JVM killed with SIGKILL while its swarm is up (a time limit on ./bench test --swarm) leaves
 * its dockerd, containerd, bridges and network namespace mounts; the next ./bench takes the swarm
 * down ({@link org.streambench.runner.leftovers.KilledTestRuns}). Tag "swarm" ({@code ./bench test --swarm}).
 */
@Tag("integration")
@Tag("swarm")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@OneForkAtATime("docker")
class KilledSwarmTest {

    @Test
    void aKilledTestJvmsSwarmIsTakenDownByTheNextBench(@TempDir Path checkout) throws Exception {
        SwarmFixture.assumeNoEngineRunsBut(null);
        Path module = KilledTestRunsTest.runnerModuleIn(checkout);
        Path swarmDir = module.resolve("target/test-work-9/swarm");
        Process killed = KilledTestRunsTest.startTestJvm(module, 9, "swarm");
        try {
            KilledTestRunsTest.kill(killed);
            List<ProcessHandle> engine = ProcessHandle.allProcesses()
                    .filter(p ->
                            p.info().command().map(c -> c.endsWith("/dockerd")).orElse(false))
                    .toList();
            assertTrue(!engine.isEmpty(), "the dockerd outlives its test JVM (else this proves nothing)");

            String cleanup = KilledTestRunsTest.runTheLaunchersCleanup(checkout);

            assertTrue(cleanup.contains("stopped the swarm"), cleanup);
            for (ProcessHandle process : engine) {
                assertTrue(Processes.exitsWithin(process, 60), "pid " + process.pid() + " survived: " + cleanup);
            }
            SwarmFixture.assertNothingLeftOf(swarmDir);
        } finally {
            killed.destroyForcibly();
            KilledTestRunsTest.runTheLaunchersCleanup(checkout);
        }
    }
}
