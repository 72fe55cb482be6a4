package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.Home;
import org.streambench.local.Lease;
import org.streambench.runner.leftovers.KilledTestRuns;
import org.streambench.runner.swarm.LocalSwarm;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServers;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * A test JVM killed with SIGKILL cannot stop the servers it started; the next ./bench does
 * ({@link KilledTestRuns}, run by the launcher before mvn and by every other command), and leaves
 * alone those of a test JVM that still runs. A killed test JVM's swarm: {@link KilledSwarmTest}.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KilledTestRunsTest {

    private static final String DATABASE = "redis";

    /**
     * Stands in for a test JVM that gets killed: {@code servers OWN_WORK} starts a server as the tests
     * do and another in a work folder of its own; {@code swarm} brings up the suite's swarm as the
     * swarm tests do. Then it says "started" and waits.
     */
    static final class TestJvm {
        public static void main(String[] args) throws Exception {
            PrintWriter quiet = new PrintWriter(new StringWriter());
            if (args[0].equals("swarm")) {
                new LocalSwarm(TestServers.WORK, quiet).up();
            } else {
                TestServers.start(DATABASE);
                Path own = Path.of(args[1]);
                TestServers.registerWork(own);
                new LocalServers(own, quiet).start(DATABASE, TestServers.freePort(), "--port", DbProfile.DEFAULT);
            }
            System.out.println("started");
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    /** A checkout of one module, runner, in {@code checkout}; returns the module's folder. */
    static Path runnerModuleIn(Path checkout) throws IOException {
        Path module = checkout.resolve("runner");
        Files.createDirectories(module);
        Files.writeString(module.resolve("pom.xml"), "<project/>\n");
        return module;
    }

    /** Starts {@link TestJvm} as test JVM number {@code fork} of {@code module}, and returns once it has started. */
    static Process startTestJvm(Path module, int fork, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dstreambench.home=" + Home.root(),
                "-Dstreambench.testFork=" + fork,
                "-cp",
                System.getProperty("java.class.path"),
                TestJvm.class.getName()));
        command.addAll(List.of(args));
        Process jvm = new ProcessBuilder(command)
                .directory(module.toFile())
                .redirectErrorStream(true)
                .start();
        awaitLine(jvm, "started");
        return jvm;
    }

    /** SIGKILL, as a time limit does. */
    static void kill(Process jvm) throws InterruptedException {
        jvm.destroyForcibly();
        assertTrue(jvm.waitFor(10, TimeUnit.SECONDS));
    }

    @Test
    void theServersOfAKilledTestJvmAreStoppedByTheNextBenchAndThoseOfALiveOneAreNot(@TempDir Path checkout)
            throws Exception {
        // a checkout of one module, whose test JVMs were numbered 7 (killed) and 8 (this one, alive)
        Path module = runnerModuleIn(checkout);
        Path killedWork = module.resolve("target/test-work-7");
        Path killedOwnWork = checkout.resolve("own-work-of-a-test");
        Path liveWork = module.resolve("target/test-work-8");

        Process killed = startTestJvm(module, 7, "servers", killedOwnWork.toString());
        LocalServers live = new LocalServers(liveWork, new PrintWriter(new StringWriter()));
        Lease liveLease = Lease.take(liveWork.resolve(Home.TEST_WORK_LEASE), "the live test work", "");
        try {
            List<ProcessHandle> left = new ArrayList<>(serverProcesses(killedWork));
            left.addAll(serverProcesses(killedOwnWork));
            assertEquals(2, left.size(), "one redis-server in each of the killed JVM's work folders: " + left);
            ServerState liveServer = live.start(DATABASE, TestServers.freePort(), "--port", DbProfile.DEFAULT);

            kill(killed);
            Thread.sleep(500);
            assertTrue(
                    left.stream().allMatch(ProcessHandle::isAlive),
                    "the servers outlive their test JVM (else this proves nothing)");

            String cleanup = runTheLaunchersCleanup(checkout);

            for (ProcessHandle server : left) {
                assertTrue(Processes.exitsWithin(server, 30), "pid " + server.pid() + " survived: " + cleanup);
            }
            assertTrue(
                    cleanup.contains("stopped the redis server that a killed test run left running in " + killedWork),
                    cleanup);
            assertTrue(cleanup.contains("in " + killedOwnWork), cleanup);
            assertFalse(Files.exists(killedWork.resolve(Home.TEST_WORK_OTHERS)), "the list is done with");
            assertTrue(live.running(DATABASE).isPresent(), "a live test JVM's server runs on: " + cleanup);
            assertTrue(liveServer.alive().size() > 0);
            assertFalse(cleanup.contains(liveWork.toString()), cleanup);

            assertEquals("", runTheLaunchersCleanup(checkout), "a second ./bench finds nothing left");
        } finally {
            killed.destroyForcibly();
            live.stop(DATABASE);
            liveLease.close();
            new LocalServers(killedWork, new PrintWriter(new StringWriter())).stop(DATABASE);
            new LocalServers(killedOwnWork, new PrintWriter(new StringWriter())).stop(DATABASE);
        }
    }

    /** As ./bench test runs it before mvn: its own JVM on the runner's classpath, here with {@code checkout} to look in. */
    static String runTheLaunchersCleanup(Path checkout) throws Exception {
        Process cleanup = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Dstreambench.home=" + Home.root(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        KilledTestRuns.class.getName(),
                        checkout.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(cleanup.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(cleanup.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, cleanup.exitValue(), out);
        return out;
    }

    private static List<ProcessHandle> serverProcesses(Path work) {
        Optional<ServerState> state = new LocalServers(work, new PrintWriter(new StringWriter())).running(DATABASE);
        assertTrue(state.isPresent(), "a " + DATABASE + " server runs from " + work);
        return state.get().alive().stream()
                .map(ServerState.ProcessRef::handle)
                .flatMap(Optional::stream)
                .toList();
    }

    private static void awaitLine(Process process, String expected) throws Exception {
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            seen.append(line).append('\n');
            if (line.equals(expected)) {
                return;
            }
        }
        throw new AssertionError("the test JVM ended before '" + expected + "':\n" + seen);
    }
}
