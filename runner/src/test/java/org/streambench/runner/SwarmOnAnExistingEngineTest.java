package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.runner.SwarmFixture.SWARM_DIR;
import static org.streambench.runner.SwarmFixture.assertVerifiedRunAs;
import static org.streambench.runner.SwarmFixture.dockerAt;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.Folders;
import org.streambench.runner.swarm.DockerEngine;
import org.streambench.servers.ServerState.ProcessRef;
import org.streambench.servers.TestServers;

/**
 * bench swarm up --use-existing on a Docker engine the suite did not start, "someone else's": the
 * test starts it in a folder of its own, with a socket of its own, as a user's engine would run.
 * On an engine in no swarm, up makes a swarm of one node and down leaves it again, unless a service
 * of the user's runs on it by then. On the user's own swarm, a secret of the stacks' names and a
 * network of the overlay's name that is no overlay are refused before anything is made, and down
 * removes the suite's stack, network and secrets and nothing of the user's: the engine, the swarm,
 * a service, a secret and a network of the user's stay. Tag "swarm" ({@code ./bench test --swarm}):
 * it needs Docker and builds the Redis image on that engine.
 */
@Tag("swarm")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@OneForkAtATime("docker")
class SwarmOnAnExistingEngineTest {

    private static final Path ENGINE_DIR = TestServers.WORK.resolve("someone-elses-docker");
    private static final PrintWriter OUT = new PrintWriter(System.out, true);

    private static DockerEngine engine;
    private static ProcessRef dockerd;

    @BeforeAll
    static void someoneElsesEngineWithTheRedisImage() throws Exception {
        SwarmFixture.assumeNoEngineRunsBut(null);
        // a swarm an earlier run left behind goes (a killed run); the images stay, as on a user's engine
        Folders.deleteTree(ENGINE_DIR.resolve("data").resolve("swarm"));
        engine = new DockerEngine(ENGINE_DIR, OUT);
        dockerd = engine.start(started -> dockerd = started);
        assertEquals("inactive", swarmState(), "the test's engine starts in no swarm");

        CliResult up = CliResult.bench("swarm", "up", "--use-existing", "--docker-host", engine.host());
        assertEquals(0, up.code(), up.toString());
        CliResult images = CliResult.bench("swarm", "images", "redis");
        assertEquals(0, images.code(), images.toString());
        CliResult down = CliResult.bench("swarm", "down");
        assertEquals(0, down.code(), down.toString());
    }

    @AfterAll
    static void stopTheEngine() throws Exception {
        CliResult.bench("swarm", "down"); // if a test failed half-way
        if (dockerd != null) {
            engine.stop(dockerd);
        }
    }

    @Test
    void onAnEngineInNoSwarmUpMakesOneAndDownLeavesItWhileTheEngineRunsOn(@TempDir Path tmp) throws Exception {
        CliResult own = CliResult.bench("swarm", "up");
        assertEquals(2, own.code(), "the suite's own engine is refused while another runs: " + own);
        assertTrue(own.err().contains("--use-existing"), own.toString());

        CliResult up = CliResult.bench("swarm", "up", "--use-existing", "--docker-host", engine.host());
        assertEquals(0, up.code(), up.toString());
        assertTrue(up.out().contains("made on it: [swarm, network, secrets]"), up.out());
        assertEquals("active", swarmState());
        CliResult status = CliResult.bench("swarm", "status");
        assertTrue(
                status.out()
                        .startsWith("an engine the suite did not start: " + engine.host()
                                + "; up made on it: [swarm, network, secrets]\nno stack of the suite is deployed"),
                status.toString());

        deployRedis();
        assertVerifiedRunAs("default", tmp, "redis", "redis://127.0.0.1:26379");

        CliResult down = CliResult.bench("swarm", "down");
        assertEquals(0, down.code(), down.toString());
        assertTrue(down.out().contains("that engine runs on"), down.out());
        assertTrue(dockerd.handle().isPresent(), "the engine runs on");
        assertEquals("inactive", swarmState(), "the swarm up made is left");
        assertEquals("", docker("ps", "--all", "--quiet").strip(), "no container of the stack is left");
        assertEquals(List.of(), suitesVolumes());
        assertFalse(networks().contains("streambench"), networks().toString());
        assertFalse(Files.exists(SWARM_DIR.resolve("swarm.properties")), "the suite uses no engine now");
        assertTrue(CliResult.bench("swarm", "status").out().startsWith("the suite's swarm is not up"));
    }

    @Test
    void aSwarmUpMadeStaysWhenAServiceOfTheUsersRunsOnItByThen() throws Exception {
        CliResult up = CliResult.bench("swarm", "up", "--use-existing", "--docker-host", engine.host());
        assertEquals(0, up.code(), up.toString());
        assertTrue(up.out().contains("made on it: [swarm, network, secrets]"), up.out());
        try {
            docker("service", "create", "--detach", "--name", "users_service", "local/streambench-redis:latest");

            CliResult down = CliResult.bench("swarm", "down");
            assertEquals(0, down.code(), down.toString());
            assertTrue(down.out().contains("runs services that are not the suite's now (users_service)"), down.out());
            assertEquals("active", swarmState(), "the swarm stays for the user's service");
            assertTrue(
                    docker("service", "ls", "--format", "{{.Name}}").strip().equals("users_service"),
                    "the user's service stays");
            assertEquals("", docker("secret", "ls", "--quiet").strip(), "the suite's secrets are gone all the same");
            assertFalse(networks().contains("streambench"), networks().toString());
        } finally {
            leaveTheUsersSwarm();
        }
    }

    @Test
    void onTheUsersSwarmDownRemovesTheSuitesStackNetworkAndSecretsAndNothingOfTheUsers() throws Exception {
        docker("swarm", "init", "--advertise-addr", "127.0.0.1", "--listen-addr", "127.0.0.1:2377");
        try {
            docker("network", "create", "--driver", "overlay", "users_net");
            docker("service", "create", "--detach", "--name", "users_service", "local/streambench-redis:latest");
            createSecret("users_secret");
            createSecret("streambench_db_password");

            CliResult refused = CliResult.bench("swarm", "up", "--use-existing", "--docker-host", engine.host());
            assertEquals(2, refused.code(), "a secret of the stacks' name, whose password the suite cannot read");
            assertTrue(refused.err().contains("docker secret rm streambench_db_password"), refused.toString());
            assertFalse(Files.exists(SWARM_DIR.resolve("swarm.properties")), "refused before anything is made");
            docker("secret", "rm", "streambench_db_password");
            docker("network", "create", "--driver", "bridge", "streambench");
            CliResult network = CliResult.bench("swarm", "up", "--use-existing", "--docker-host", engine.host());
            assertEquals(2, network.code(), "a network of the overlay's name that is no overlay: " + network);
            assertTrue(network.err().contains("remove or rename it"), network.toString());
            assertFalse(Files.exists(SWARM_DIR.resolve("swarm.properties")), "refused before anything is made");
            docker("network", "rm", "streambench");

            CliResult up = CliResult.bench("swarm", "up", "--use-existing", "--docker-host", engine.host());
            assertEquals(0, up.code(), up.toString());
            assertTrue(up.out().contains("made on it: [network, secrets]"), up.out());
            deployRedis();
            assertTrue(docker("secret", "ls", "--format", "{{.Name}}").contains("streambench_db_root_password"));

            CliResult down = CliResult.bench("swarm", "down");
            assertEquals(0, down.code(), down.toString());
            assertTrue(dockerd.handle().isPresent(), "the engine runs on");
            assertEquals("active", swarmState(), "the user's swarm stays");
            assertEquals(
                    "users_service 1/1",
                    docker("service", "ls", "--format", "{{.Name}} {{.Replicas}}")
                            .strip(),
                    "the user's service runs on, and no service of the suite is left");
            assertEquals(
                    "users_secret",
                    docker("secret", "ls", "--format", "{{.Name}}").strip(),
                    "the user's secret stays, the suite's are gone");
            assertTrue(networks().contains("users_net"), networks().toString());
            assertFalse(networks().contains("streambench"), networks().toString());
            assertEquals(List.of(), suitesVolumes());
            assertEquals(
                    List.of("users_service"),
                    docker("ps", "--all", "--format", "{{.Names}}")
                            .strip()
                            .lines()
                            .map(name -> name.replaceFirst("\\..*", ""))
                            .toList(),
                    "only the user's container is left");
        } finally {
            leaveTheUsersSwarm();
        }
    }

    /** The user's clean-up: a failure above is not hidden by a swarm that is gone already. */
    private static void leaveTheUsersSwarm() throws Exception {
        if (swarmState().equals("active")) {
            docker("swarm", "leave", "--force");
        }
    }

    private static void deployRedis() {
        CliResult deploy = CliResult.bench("swarm", "deploy", "redis", "--single-node");
        assertEquals(0, deploy.code(), deploy.toString());
        assertTrue(deploy.out().contains("stack streambench-redis healthy after"), deploy.out());
        SwarmFixture.assertStatusShows("redis");
    }

    private static String swarmState() throws Exception {
        return docker("info", "--format", "{{.Swarm.LocalNodeState}}").strip();
    }

    private static List<String> networks() throws Exception {
        return docker("network", "ls", "--format", "{{.Name}}").strip().lines().toList();
    }

    private static List<String> suitesVolumes() throws Exception {
        return docker("volume", "ls", "--quiet")
                .strip()
                .lines()
                .filter(volume -> volume.startsWith("streambench-"))
                .toList();
    }

    private static void createSecret(String name) throws Exception {
        Path file = Files.createTempFile(ENGINE_DIR, "secret", "");
        try {
            Files.writeString(file, "the user's");
            docker("secret", "create", name, file.toString());
        } finally {
            Files.delete(file);
        }
    }

    private static String docker(String... arguments) throws Exception {
        return dockerAt(engine.host(), arguments);
    }
}
