package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.Home;
import org.streambench.runner.experiment.ExperimentRunner;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.TestServers;

/**
 * The PostgreSQL stack (a primary and two streaming replicas), the Cassandra stack (three nodes),
 * the MariaDB stack (three Galera nodes), the Redis stack (a primary and two replicas) and the HBase
 * stack (a master and two region servers on HDFS, with ZooKeeper), and the base stack (HDFS and
 * YARN) running a job on its YARN that the monitoring stack's Prometheus scrapes, on a single-node
 * swarm of the test's own: bench swarm up starts a Docker engine under the test's
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
    private static final String GALERA_URL =
            "jdbc:mariadb:sequential://127.0.0.1:23306,127.0.0.1:23307,127.0.0.1:23308/streambench";

    /** The stacks the running test deployed, removed after it. */
    private final List<String> deployed = new ArrayList<>();

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
        CliResult images = CliResult.bench(
                "swarm", "images", "postgresql", "cassandra", "mariadb", "redis", "hbase", "hadoop", "prometheus");
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
     * The study's path: the base stack's YARN (its ResourceManager and NodeManager in tasks, the
     * engines' jars staged on its HDFS) runs the job against the PostgreSQL stack, verified, while
     * the monitoring stack's Prometheus scrapes the job's containers; the application is the swarm
     * YARN's, and what the run staged on HDFS is gone after it.
     */
    @Test
    void aVerifiedRunOnTheSwarmsYarnAgainstThePostgresqlStackScrapedByItsPrometheus(@TempDir Path tmp)
            throws Exception {
        deployHealthy("base");
        deployHealthy("postgresql");
        deployHealthy("monitoring");
        Path out = tmp.resolve("run");
        CompletableFuture<CliResult> run = CompletableFuture.supplyAsync(() -> {
            try {
                return assertVerifiedRun(
                        tmp,
                        "postgresql",
                        PRIMARY_URL,
                        "--cluster",
                        "yarn",
                        "--yarn-conf",
                        Home.root()
                                .resolve("docker-swarm/single-node/yarn-conf")
                                .toString());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        String query = "http://127.0.0.1:29090/api/v1/query?query="
                + URLEncoder.encode("streambench_records_total{run=\"" + out + "\"} > 0", StandardCharsets.UTF_8);
        String scraped = http(query);
        while (!run.isDone() && !scraped.contains("\"role\":\"job\"")) {
            Thread.sleep(500);
            scraped = http(query);
        }
        assertTrue(
                scraped.contains("\"role\":\"job\""), "the swarm's Prometheus scraped the job's records: " + scraped);
        run.join();

        Map<String, Object> result = ResultFiles.read(out);
        @SuppressWarnings("unchecked")
        Map<String, Object> environment = (Map<String, Object>) result.get("environment");
        assertEquals("yarn", environment.get("cluster"));
        String application = http("http://127.0.0.1:28034/ws/v1/cluster/apps/" + environment.get("applicationId"));
        assertTrue(application.contains("\"name\":\"streambench flink postgresql update"), application);
        String staged = http("http://127.0.0.1:29870/webhdfs/v1" + out.toAbsolutePath() + "?op=LISTSTATUS&user.name="
                + System.getProperty("user.name"));
        assertFalse(staged.contains(ExperimentRunner.JOB_TMP), "the run's staged files are gone from HDFS: " + staged);
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

    /**
     * MariaDB Galera x3: the cluster formed on one machine (the first node bootstraps it, the others
     * join by state transfer), a verified run through the first node that settled (the suite's user
     * may flush), and every row on every node at once (Galera replicates synchronously).
     */
    @Test
    void aVerifiedRunAgainstAThreeNodeGaleraClusterWhoseNodesAllHoldEveryRow(@TempDir Path tmp) throws Exception {
        deployHealthy("mariadb");
        CliResult run = assertVerifiedRun(tmp, "mariadb", GALERA_URL);
        assertFalse(run.out().contains("nothing settled"), run.out());

        List<String> nodes = List.of("mariadb-1", "mariadb-2", "mariadb-3");
        for (String node : nodes) {
            assertEquals("wsrep_cluster_size\t3", mariadb(node, "SHOW STATUS LIKE 'wsrep_cluster_size'"), node);
        }
        String first = mariadb("mariadb-1", "SELECT count(*), sum(int_1) FROM streambench.sensor_records");
        assertTrue(first.startsWith("500\t"), first);
        for (String node : nodes.subList(1, 3)) {
            assertEquals(
                    first,
                    mariadb(node, "SELECT count(*), sum(int_1) FROM streambench.sensor_records"),
                    node + " holds what was written through mariadb-1");
        }
    }

    /**
     * Redis (not in the study): a verified run against the primary, and both replicas, replicating
     * asynchronously, catch up with it: every key, the primary's replication offset.
     */
    @Test
    void aVerifiedRunAgainstARedisPrimaryWhoseTwoReplicasCatchUp(@TempDir Path tmp) throws Exception {
        deployHealthy("redis");
        assertVerifiedRunAs("default", tmp, "redis", "redis://127.0.0.1:26379");

        String primary = redis("redis-1", "INFO", "replication");
        assertTrue(primary.contains("connected_slaves:2"), primary);
        assertEquals("500", redis("redis-1", "DBSIZE"), "the run's keys");
        // the offset only grows (the primary also pings its replicas through the stream): caught up = at or past it
        long offset = Long.parseLong(field(primary, "master_repl_offset"));
        for (String replica : List.of("redis-2", "redis-3")) {
            long caughtUp = -1;
            for (int attempt = 0; attempt < 30 && caughtUp < offset; attempt++) {
                caughtUp = Long.parseLong(field(redis(replica, "INFO", "replication"), "master_repl_offset"));
                Thread.sleep(1_000);
            }
            assertTrue(caughtUp >= offset, replica + " at offset " + caughtUp + ", the primary had " + offset);
            assertEquals("500", redis(replica, "DBSIZE"), replica);
        }
    }

    @Test
    void aVerifiedRunAgainstHBaseWithTwoRegionServersWhoseTableIsOnHdfs(@TempDir Path tmp) throws Exception {
        deployHealthy("hbase");
        assertVerifiedRunAs(null, tmp, "hbase", "127.0.0.1:22181");

        String master = http("http://127.0.0.1:26001/jmx?qry=Hadoop:service=HBase,name=Master,sub=Server");
        assertTrue(master.matches("(?s).*\"numRegionServers\" ?: ?2,.*"), master);
        // the prefill was flushed before the run: its 500 rows of 1,000 B BLOBs are HFiles on HDFS
        String table = http("http://127.0.0.1:28070/webhdfs/v1/hbase/data/default/sensor_records?op=GETCONTENTSUMMARY");
        Matcher length = Pattern.compile("\"length\" ?: ?(\\d+)").matcher(table);
        assertTrue(length.find(), table);
        assertTrue(Long.parseLong(length.group(1)) >= 500 * 1000, table);
    }

    private static String http(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), url + ": " + response.body());
        return response.body();
    }

    private static String field(String info, String name) {
        return info.lines()
                .filter(line -> line.startsWith(name + ":"))
                .map(line -> line.substring(name.length() + 1).strip())
                .findFirst()
                .orElse("");
    }

    /** A redis-cli command inside a task's container, with the password from the stack's secret. */
    private static String redis(String service, String... command) throws IOException, InterruptedException {
        return docker(
                        host(),
                        "exec",
                        container("redis", service),
                        "sh",
                        "-c",
                        "REDISCLI_AUTH=\"$(cat /run/secrets/streambench_db_password)\" redis-cli "
                                + String.join(" ", command))
                .strip();
    }

    /**
     * A stack whose image this engine lacks is refused before anything is deployed, with the
     * command that builds it (a task would otherwise try to pull it from a registry and fail).
     */
    @Test
    void aStackWhoseImageIsNotBuiltIsRefusedWithTheCommandThatBuildsIt() throws Exception {
        docker(host(), "image", "rm", "--force", "local/streambench-redis:latest");
        try {
            CliResult deploy = CliResult.bench("swarm", "deploy", "redis", "--single-node");
            assertEquals(2, deploy.code(), deploy.toString());
            assertTrue(
                    deploy.err().contains("needs the image local/streambench-redis:latest")
                            && deploy.err().contains("./bench swarm images redis"),
                    deploy.err());
            assertEquals(
                    "", docker(host(), "stack", "ls", "--format", "{{.Name}}").strip(), "nothing deployed");
        } finally {
            CliResult images = CliResult.bench("swarm", "images", "redis");
            assertEquals(0, images.code(), images.toString());
        }
    }

    /** Each test's stacks go when the test ends: four clusters at once would share two cores. */
    @AfterEach
    void removeTheStacks() {
        List<String> stacks = List.copyOf(deployed);
        deployed.clear();
        for (String stack : stacks) {
            CliResult rm = CliResult.bench("swarm", "rm", stack);
            assertEquals(0, rm.code(), rm.toString());
        }
    }

    private void deployHealthy(String stack) {
        deployed.add(stack);
        CliResult deploy = CliResult.bench("swarm", "deploy", stack, "--single-node");
        assertEquals(0, deploy.code(), deploy.toString());
        assertTrue(deploy.out().contains("stack streambench-" + stack + " healthy after"), deploy.out());
    }

    /** A bounded Flink run of updates against the stack at {@code url}, as the suite's user, verified: 0 mismatches. */
    private static CliResult assertVerifiedRun(Path tmp, String database, String url, String... settings)
            throws IOException {
        return assertVerifiedRunAs("streambench", tmp, database, url, settings);
    }

    /** As {@code user} with the stack's password; a null user: a database without passwords (HBase). */
    private static CliResult assertVerifiedRunAs(String user, Path tmp, String database, String url, String... settings)
            throws IOException {
        Path out = tmp.resolve("run");
        List<String> args = new ArrayList<>(List.of("run", "--engine", "flink", "--db", database, "--db-url", url));
        if (user != null) {
            args.addAll(List.of(
                    "--db-user",
                    user,
                    "--db-password-file",
                    SWARM_DIR.resolve("streambench_db_password").toString()));
        }
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
        return run;
    }

    private static CqlSession cassandra(String user, String password) {
        CqlSessionBuilder builder =
                CqlSession.builder().withLocalDatacenter("datacenter1").withAuthCredentials(user, password);
        for (String node : CASSANDRA_URL.split(",")) {
            builder.addContactPoint(new InetSocketAddress("127.0.0.1", Integer.parseInt(node.split(":")[1])));
        }
        return builder.build();
    }

    /** A query inside a task's container, as the database's superuser over its socket. */
    private static String mariadb(String service, String query) throws IOException, InterruptedException {
        return docker(host(), "exec", container("mariadb", service), "mariadb", "--protocol=socket", "-N", "-e", query)
                .strip();
    }

    private static String host() {
        return "unix://" + SWARM_DIR.resolve("docker.sock");
    }

    private static String container(String stack, String service) throws IOException, InterruptedException {
        return docker(host(), "ps", "--quiet", "--filter", "name=streambench-" + stack + "_" + service)
                .strip();
    }

    /** A query inside a task's container, through the suite's engine. */
    private static String psql(String service, String query) throws IOException, InterruptedException {
        return docker(
                        host(),
                        "exec",
                        container("postgresql", service),
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
