package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.TestServers;

/**
 * The PostgreSQL stack (a primary and two streaming replicas) and the Cassandra stack (three nodes)
 * on a single-node swarm of the test's own: bench swarm up starts a Docker engine under the test's
 * work folder, bench swarm images builds the images offline, bench swarm deploy --single-node waits
 * until a stack is healthy, a bounded bench run against it is verified, every replica holds what
 * was written, and bench swarm down leaves no container and no process of the engine behind. Tag "swarm" ({@code ./bench test --swarm}):
 * minutes, and it needs Docker (which ./bench installs).
 */
@Tag("swarm")
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class SwarmTest {

    private static final Path SWARM_DIR = TestServers.WORK.resolve("swarm");
    private static final String PRIMARY_URL = "jdbc:postgresql://127.0.0.1:25432/streambench";
    private static final String CASSANDRA_URL = "127.0.0.1:29042,127.0.0.1:29043,127.0.0.1:29044";

    @BeforeAll
    static void upWithItsImage() {
        boolean othersEngine = ProcessHandle.allProcesses()
                .anyMatch(
                        p -> p.info().command().map(c -> c.endsWith("/dockerd")).orElse(false)
                                && p.info()
                                        .arguments()
                                        .map(a -> !String.join(" ", a).contains(SWARM_DIR.toString()))
                                        .orElse(true));
        Assumptions.assumeFalse(othersEngine, "another Docker engine runs here; the suite never shares one");
        CliResult up = CliResult.bench("swarm", "up");
        assertEquals(0, up.code(), up.toString());
        CliResult images = CliResult.bench("swarm", "images", "postgresql", "cassandra");
        assertEquals(0, images.code(), images.toString());
    }

    @AfterAll
    static void downLeavesNothing() throws Exception {
        CliResult down = CliResult.bench("swarm", "down");
        assertEquals(0, down.code(), down.toString());
        List<String> left = ProcessHandle.allProcesses()
                .filter(p -> p.info()
                        .commandLine()
                        .map(c -> c.contains(SWARM_DIR.toString()))
                        .orElse(false))
                .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
                .toList();
        assertEquals(List.of(), left, "no process of the suite's engine is left");
        try (Stream<Path> volumes = Files.list(SWARM_DIR.resolve("data").resolve("volumes"))) {
            assertEquals(
                    List.of(),
                    volumes.map(v -> v.getFileName().toString())
                            .filter(v -> v.startsWith("streambench-"))
                            .toList(),
                    "the stacks' volumes are gone");
        }
        for (String bridge : List.of("docker0", "docker_gwbridge")) {
            Process show = new ProcessBuilder("ip", "link", "show", bridge)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            assertEquals(1, show.waitFor(), "the network bridge " + bridge + " is gone");
        }
    }

    @Test
    void aVerifiedRunAgainstThePrimaryAndTheReplicasFollow(@TempDir Path tmp) throws Exception {
        deployHealthy("postgresql");
        assertVerifiedRun(tmp, "postgresql", PRIMARY_URL);

        String primaryCount = psql("postgresql-primary", "SELECT count(*), sum(int_1) FROM sensor_records");
        for (String replica : List.of("postgresql-replica-1", "postgresql-replica-2")) {
            String replicaCount = "";
            for (int attempt = 0; attempt < 30 && !replicaCount.equals(primaryCount); attempt++) {
                replicaCount = psql(replica, "SELECT count(*), sum(int_1) FROM sensor_records");
                Thread.sleep(1_000);
            }
            assertEquals(primaryCount, replicaCount, replica + " streams what the primary holds");
        }
    }

    /**
     * Cassandra x3: the three nodes up on one machine, a verified run through all three (each node
     * tells clients its own published port), every row on every node (replication factor 3, counted
     * at consistency ALL), the suite's superuser in place and Cassandra's default one locked out.
     */
    @Test
    void aVerifiedRunAgainstThreeCassandraNodesThatEachHoldEveryRow(@TempDir Path tmp) throws Exception {
        deployHealthy("cassandra");
        assertVerifiedRun(
                tmp,
                "cassandra",
                CASSANDRA_URL,
                "--db-setting",
                "replicationFactor=3",
                "--db-setting",
                "readConsistency=QUORUM",
                "--db-setting",
                "writeConsistency=QUORUM");

        String password =
                Files.readString(SWARM_DIR.resolve("streambench_db_password")).strip();
        try (CqlSession session = cassandra("streambench", password)) {
            assertEquals(
                    2, session.execute("SELECT peer FROM system.peers").all().size(), "three nodes");
            long rows = session.execute(SimpleStatement.newInstance("SELECT count(*) FROM streambench.sensor_records")
                            .setConsistencyLevel(DefaultConsistencyLevel.ALL)
                            .setTimeout(Duration.ofSeconds(30)))
                    .one()
                    .getLong(0);
            assertEquals(500, rows, "every node answers for every row");
        }
        assertThrows(AllNodesFailedException.class, () -> cassandra("cassandra", "cassandra")
                .close());
    }

    private static void deployHealthy(String stack) {
        CliResult deploy = CliResult.bench("swarm", "deploy", stack, "--single-node");
        assertEquals(0, deploy.code(), deploy.toString());
        assertTrue(deploy.out().contains("stack streambench-" + stack + " healthy after"), deploy.out());
    }

    /** A bounded Flink run of updates against the stack at {@code url}, as the suite's user, verified: 0 mismatches. */
    private static void assertVerifiedRun(Path tmp, String database, String url, String... settings)
            throws IOException {
        Path out = tmp.resolve("run");
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--engine",
                "flink",
                "--db",
                database,
                "--db-url",
                url,
                "--db-user",
                "streambench",
                "--db-password-file",
                SWARM_DIR.resolve("streambench_db_password").toString()));
        args.addAll(List.of(settings));
        args.addAll(List.of(
                "--pattern",
                "update",
                "--blob",
                "1000",
                "--keys",
                "500",
                "--records",
                "3000",
                "--duration",
                "60s",
                "--warmup",
                "1s",
                "--metrics-port",
                "0",
                "--out",
                out.toString()));
        CliResult run = CliResult.bench(args.toArray(String[]::new));
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> result = ResultFiles.read(out);
        @SuppressWarnings("unchecked")
        Map<String, Object> verification = (Map<String, Object>) result.get("verification");
        assertEquals(0, verification.get("mismatches"), verification.toString());
    }

    private static CqlSession cassandra(String user, String password) {
        CqlSessionBuilder builder =
                CqlSession.builder().withLocalDatacenter("datacenter1").withAuthCredentials(user, password);
        for (String node : CASSANDRA_URL.split(",")) {
            builder.addContactPoint(new InetSocketAddress("127.0.0.1", Integer.parseInt(node.split(":")[1])));
        }
        return builder.build();
    }

    /** A query inside a task's container, through the suite's engine. */
    private static String psql(String service, String query) throws IOException, InterruptedException {
        String host = "unix://" + SWARM_DIR.resolve("docker.sock");
        String container = docker(host, "ps", "--quiet", "--filter", "name=streambench-postgresql_" + service)
                .strip();
        return docker(
                        host,
                        "exec",
                        container,
                        "psql",
                        "--username=streambench",
                        "--dbname=streambench",
                        "--tuples-only",
                        "--no-align",
                        "--command=" + query)
                .strip();
    }

    private static String docker(String host, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("DOCKER_HOST", host);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "docker " + String.join(" ", arguments));
        assertEquals(0, process.exitValue(), "docker " + String.join(" ", arguments) + ": " + output);
        return output;
    }
}
