package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.runner.SwarmFixture.PRIMARY_URL;
import static org.streambench.runner.SwarmFixture.SWARM_DIR;
import static org.streambench.runner.SwarmFixture.VERIFIED_RUN_RECORDS;
import static org.streambench.runner.SwarmFixture.assertVerifiedRun;
import static org.streambench.runner.SwarmFixture.assertVerifiedRunAs;
import static org.streambench.runner.SwarmFixture.container;
import static org.streambench.runner.SwarmFixture.docker;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.Home;
import org.streambench.runner.experiment.ExperimentRunner;
import org.streambench.runner.results.ResultFiles;

/**
 * The heavier stacks beyond SwarmPostgresqlTest's, on a single-node swarm of the test's own: the
 * Cassandra stack (three nodes), the MariaDB stack (three Galera nodes), the Redis stack (a primary
 * and two replicas), the Hazelcast stack (three members), the HBase stack (a master and two region
 * servers on HDFS, with ZooKeeper), and the base stack (HDFS and YARN) running a job on its YARN
 * against the PostgreSQL stack that the monitoring stack's Prometheus scrapes. Each stack deployed
 * until healthy, a bounded bench run against it verified, every replica holding what was written,
 * and bench swarm down leaving no container and no process of the engine behind. Tag "swarm"
 * ({@code ./bench test --swarm}): minutes, and it needs Docker (which ./bench installs).
 */
@Tag("swarm")
@Timeout(value = 30, unit = TimeUnit.MINUTES)
@OneForkAtATime("docker")
class SwarmTest {

    private static final String CASSANDRA_URL = "127.0.0.1:29042,127.0.0.1:29043,127.0.0.1:29044";
    private static final String GALERA_URL =
            "jdbc:mariadb:sequential://127.0.0.1:23306,127.0.0.1:23307,127.0.0.1:23308/streambench";

    private final SwarmFixture swarm = new SwarmFixture();

    @BeforeAll
    static void upWithItsImages() {
        SwarmFixture.up("postgresql", "cassandra", "mariadb", "redis", "hazelcast", "hbase", "hadoop", "prometheus");
    }

    @AfterAll
    static void downLeavesNothing() throws Exception {
        SwarmFixture.downLeavesNothing();
    }

    /** Each test's stacks go when the test ends. */
    @AfterEach
    void removeTheStacks() {
        swarm.removeDeployed();
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
        swarm.deployHealthy("base");
        swarm.deployHealthy("postgresql");
        swarm.deployHealthy("monitoring");
        Path out = tmp.resolve("run");
        CompletableFuture<CliResult> run = CompletableFuture.supplyAsync(() -> {
            try {
                return assertVerifiedRun(
                        tmp,
                        "postgresql",
                        PRIMARY_URL,
                        // 3000 records over at least 15 s: Prometheus (1 s scrapes) sees the job's workers, also on a
                        // slow day, when the unthrottled job once ended before a scrape
                        "--rate",
                        "200",
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
                // over the last minutes: a series whose job has ended is stale, and an instant query misses it
                + URLEncoder.encode(
                        "max_over_time(streambench_records_total{run=\"" + out + "\"}[10m]) > 0",
                        StandardCharsets.UTF_8);
        String scraped = http(query);
        while (!run.isDone() && !scraped.contains("\"role\":\"job\"")) {
            Thread.sleep(500);
            scraped = http(query);
        }
        CliResult finished = run.join(); // a failed run fails here, with its own cause
        scraped = scraped.contains("\"role\":\"job\"") ? scraped : http(query);
        assertTrue(
                scraped.contains("\"role\":\"job\""),
                "the swarm's Prometheus scraped the job's records: " + scraped + "\nthe run:\n" + finished.out());

        Map<String, Object> result = ResultFiles.read(out);
        @SuppressWarnings("unchecked")
        Map<String, Object> environment = (Map<String, Object>) result.get("environment");
        assertEquals("yarn", environment.get("cluster"));
        String application = http("http://127.0.0.1:28034/ws/v1/cluster/apps/" + environment.get("applicationId"));
        assertTrue(application.contains("\"name\":\"streambench flink postgresql update"), application);
        String staged = http("http://127.0.0.1:29870/webhdfs/v1" + out.toAbsolutePath() + "?op=LISTSTATUS&user.name="
                + System.getProperty("user.name"));
        assertFalse(staged.contains(ExperimentRunner.JOB_TMP), "the run's staged files are gone from HDFS: " + staged);

        // the monitoring stack's exporters: scraped by its Prometheus, and read into a timed run's result
        String up = http("http://127.0.0.1:29090/api/v1/query?query="
                + URLEncoder.encode("up{role=\"exporter\"} == 1", StandardCharsets.UTF_8));
        assertTrue(
                up.contains("\"exporter\":\"swarm-node\"") && up.contains("\"exporter\":\"swarm-postgresql\""),
                "the stack's Prometheus scrapes the node's and PostgreSQL's exporters: " + up);
        Path timed = tmp.resolve("timed");
        CliResult timedRun = CliResult.bench(
                "run",
                "--engine",
                "flink",
                "--db",
                "postgresql",
                "--db-url",
                PRIMARY_URL,
                "--db-user",
                "streambench",
                "--db-password-file",
                SWARM_DIR.resolve("streambench_db_password").toString(),
                "--pattern",
                "update",
                "--blob",
                "100",
                "--keys",
                "500",
                "--duration",
                "2s",
                "--warmup",
                "1s",
                "--metrics-port",
                "0",
                "--out",
                timed.toString());
        assertEquals(0, timedRun.code(), timedRun.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> resources =
                (Map<String, Object>) ResultFiles.read(timed).get("resources");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> exporters = (Map<String, Map<String, Object>>) resources.get("exporters");
        long records = ((Number) resources.get("records")).longValue();
        @SuppressWarnings("unchecked")
        Map<String, Number> postgresql =
                (Map<String, Number>) exporters.get("swarm-postgresql").get("counterGrowth");
        double commits = postgresql.entrySet().stream()
                .filter(series -> series.getKey().startsWith("pg_stat_database_xact_commit{")
                        && series.getKey().contains("datname=\"streambench\""))
                .mapToDouble(series -> series.getValue().doubleValue())
                .sum();
        assertTrue(
                records > 0 && commits >= records,
                "a read and an update committed for each of " + records + " records: " + commits + " " + resources);
        assertTrue(
                ((Number) exporters.get("swarm-node").get("busyCpuSeconds")).doubleValue() > 0,
                "the node exporter shows the machine's CPU: " + resources);
    }

    /**
     * Cassandra x3: the three nodes up on one machine, a verified run through all three (each node
     * tells clients its own published port), every row on every node (replication factor 3, counted
     * at consistency ALL), the suite's superuser in place and Cassandra's default one locked out.
     */
    @Test
    void aVerifiedRunAgainstThreeCassandraNodesThatEachHoldEveryRow(@TempDir Path tmp) throws Exception {
        swarm.deployHealthy("cassandra");
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
     * may flush), seen by the monitoring stack's MySQL exporter, and every row on every node at once
     * (Galera replicates synchronously).
     */
    @Test
    void aVerifiedRunAgainstAThreeNodeGaleraClusterWhoseNodesAllHoldEveryRow(@TempDir Path tmp) throws Exception {
        swarm.deployHealthy("mariadb");
        swarm.deployHealthy("monitoring");
        CliResult run = assertVerifiedRun(tmp, "mariadb", GALERA_URL);
        assertFalse(run.out().contains("nothing settled"), run.out());
        // the monitoring stack's MySQL exporter watches the node the run wrote through
        awaitExporterCounter(
                "swarm-mariadb", "mysql_global_status_commands_total{command=\"update\"}", VERIFIED_RUN_RECORDS);

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
     * Redis (not in the study): a verified run against the primary, seen by the monitoring stack's
     * Redis exporter, and both replicas, replicating asynchronously, catch up with it: every key, the
     * primary's replication offset.
     */
    @Test
    void aVerifiedRunAgainstARedisPrimaryWhoseTwoReplicasCatchUp(@TempDir Path tmp) throws Exception {
        swarm.deployHealthy("redis");
        swarm.deployHealthy("monitoring");
        assertVerifiedRunAs("default", tmp, "redis", "redis://127.0.0.1:26379");
        // the monitoring stack's Redis exporter watches the primary
        awaitExporterCounter("swarm-redis", "redis_commands_total{cmd=\"hset\"}", VERIFIED_RUN_RECORDS);

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

    /**
     * Hazelcast (not in the study): a verified run against three members, and the map keeps every
     * entry when a member is killed (the vendor's one synchronous backup, which a member alone, as the
     * suite's local server, has nowhere to put).
     */
    @Test
    void aVerifiedRunAgainstThreeHazelcastMembersWhoseMapOutlivesOneOfThem(@TempDir Path tmp) throws Exception {
        swarm.deployHealthy("hazelcast");
        Path password = SWARM_DIR.resolve("streambench_db_password");
        assertVerifiedRunAs(
                null, tmp, "hazelcast", "hazelcast://127.0.0.1:25701", "--db-password-file", password.toString());

        ClientConfig config = new ClientConfig();
        config.setClusterName(Files.readString(password, StandardCharsets.UTF_8).strip());
        config.setProperty("hazelcast.logging.type", "none");
        config.getNetworkConfig().addAddress("127.0.0.1:25701", "127.0.0.1:25703");
        HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
        try {
            assertEquals(
                    3,
                    client.getCluster().getMembers().size(),
                    client.getCluster().getMembers().toString());
            assertEquals(500, client.getMap("sensor_records").size(), "the run's keys");
            UUID killed = client.getCluster().getMembers().stream()
                    .filter(member -> member.getAddress().getPort() == 25702)
                    .map(Member::getUuid)
                    .findFirst()
                    .orElseThrow();
            docker("kill", container("hazelcast", "hazelcast-2"));
            for (int attempt = 0; attempt < 60 && memberIsIn(client, killed); attempt++) {
                Thread.sleep(1_000);
            }
            assertFalse(memberIsIn(client, killed), "the killed member left the cluster");
            assertEquals(500, client.getMap("sensor_records").size(), "every entry, from the backups");
        } finally {
            client.shutdown();
        }
    }

    private static boolean memberIsIn(HazelcastInstance client, UUID member) {
        return client.getCluster().getMembers().stream()
                .anyMatch(m -> m.getUuid().equals(member));
    }

    @Test
    void aVerifiedRunAgainstHBaseWithTwoRegionServersWhoseTableIsOnHdfs(@TempDir Path tmp) throws Exception {
        swarm.deployHealthy("hbase");
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

    /**
     * Waits until the swarm's Prometheus, scraping the monitoring stack's exporter {@code exporter},
     * has {@code series} at {@code atLeast} or more: one call of the database per record of a run.
     */
    private static void awaitExporterCounter(String exporter, String series, double atLeast) throws Exception {
        String selector = series.replace("{", "{role=\"exporter\",exporter=\"" + exporter + "\",");
        PrometheusApi prometheus = new PrometheusApi("http://127.0.0.1:29090");
        PrometheusApi.await(
                exporter + "'s " + series + " at " + atLeast + " or more",
                () -> prometheus.query(selector),
                result ->
                        result.size() == 1 && result.get(0).get("value").get(1).asDouble() >= atLeast,
                Duration.ofSeconds(20));
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
        docker("image", "rm", "--force", "local/streambench-redis:latest");
        try {
            CliResult deploy = CliResult.bench("swarm", "deploy", "redis", "--single-node");
            assertEquals(2, deploy.code(), deploy.toString());
            assertTrue(
                    deploy.err().contains("needs the image local/streambench-redis:latest")
                            && deploy.err().contains("./bench swarm images redis"),
                    deploy.err());
            assertEquals("", docker("stack", "ls", "--format", "{{.Name}}").strip(), "nothing deployed");
        } finally {
            CliResult images = CliResult.bench("swarm", "images", "redis");
            assertEquals(0, images.code(), images.toString());
        }
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
        return docker("exec", container("mariadb", service), "mariadb", "--protocol=socket", "-N", "-e", query)
                .strip();
    }
}
