package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.db.Databases;
import org.streambench.local.Home;
import org.streambench.runner.swarm.Swarm;

/**
 * The Docker Swarm stack files, validated offline (there is no Docker engine here): Docker's own
 * {@code docker stack config} accepts each, and every service is pinned, limited, placed and
 * health-checked; the monitoring stack stays within the study's 2 CPUs, uses the repository's
 * grafana/ files themselves, and its Prometheus configuration passes promtool. Every database of
 * the study has a stack and a cluster matrix spec that bench accepts, whose addresses are services
 * of the stacks on their client ports; {@code bench swarm} refuses clearly where there is no Swarm.
 */
@Tag("integration")
class SwarmStacksTest {

    private static final Path SWARM = Home.root().resolve("docker-swarm");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final List<String> STUDY_DATABASES = Databases.study();
    /** The client port of each server image the stacks use; mongos takes its port from its command. */
    private static final Map<String, Integer> CLIENT_PORT_OF_IMAGE =
            Map.of("cassandra", 9042, "zookeeper", 2181, "postgres", 5432, "mariadb", 3306);

    @Test
    void dockerAcceptsEveryStackAndEveryServiceIsPinnedLimitedPlacedAndHealthChecked() throws Exception {
        List<Path> stacks = stacks();
        assertFalse(stacks.isEmpty());
        for (Path stack : stacks) {
            JsonNode config = stackConfig(stack);
            for (Map.Entry<String, JsonNode> service : iterable(config.get("services"))) {
                String where = stack.getFileName() + " service " + service.getKey();
                JsonNode s = service.getValue();
                String image = s.path("image").asText();
                assertTrue(image.matches("[^:]+:v?[0-9][^:]*"), where + ": image pinned to a version: " + image);
                JsonNode limits = s.path("deploy").path("resources").path("limits");
                assertTrue(limits.has("cpus") && limits.has("memory"), where + ": CPU and memory limits");
                assertTrue(
                        s.path("deploy").path("placement").path("constraints").size() > 0,
                        where + ": placed by node label");
                assertTrue(s.has("healthcheck"), where + ": health check");
            }
        }
    }

    /** What a swarm of one 2-core node without IPVS (bench swarm up) can run; see docs/swarm.md. */
    @Test
    void singleNodeStacksScheduleOnOneNodeWithImagesTheSuiteBuilds() throws Exception {
        List<Path> stacks;
        try (Stream<Path> files = Files.list(SWARM.resolve("single-node"))) {
            stacks = files.filter(p -> p.toString().endsWith(".yml")).sorted().toList();
        }
        assertFalse(stacks.isEmpty());
        for (Path stack : stacks) {
            assertTrue(
                    Files.isRegularFile(SWARM.resolve(stack.getFileName())),
                    stack.getFileName() + ": a profile of a full-size stack");
            long reservedBytes = 0;
            JsonNode config = stackConfig(stack);
            List<String> hostNetworks = new ArrayList<>();
            for (Map.Entry<String, JsonNode> network : iterable(config.path("networks"))) {
                if ("host".equals(network.getValue().path("name").asText())) {
                    hostNetworks.add(network.getKey());
                }
            }
            for (Map.Entry<String, JsonNode> service : iterable(config.get("services"))) {
                String where = stack.getFileName() + " service " + service.getKey();
                JsonNode s = service.getValue();
                String image = s.path("image").asText();
                assertTrue(
                        image.matches("local/streambench-[a-z0-9-]+:latest"),
                        where + ": an image bench swarm images builds: " + image);
                String name = image.substring("local/streambench-".length(), image.indexOf(':'));
                assertTrue(
                        Files.isRegularFile(
                                SWARM.resolve("images").resolve(name).resolve("Dockerfile")),
                        where + ": docker-swarm/images/" + name + "/Dockerfile");
                JsonNode deploy = s.path("deploy");
                // docker stack config writes a service's networks as a mapping (name: options)
                List<String> networks = new ArrayList<>();
                s.path("networks").fieldNames().forEachRemaining(networks::add);
                boolean onTheHostsNetwork = networks.stream().anyMatch(hostNetworks::contains);
                if (onTheHostsNetwork) {
                    assertEquals(1, networks.size(), where + ": the host's network only");
                    assertFalse(s.has("ports"), where + ": on the host's network, it publishes nothing");
                } else {
                    assertEquals(
                            "dnsrr",
                            deploy.path("endpoint_mode").asText(),
                            where + ": names resolve to tasks, no IPVS");
                }
                assertEquals(
                        "node.role == manager",
                        deploy.path("placement").path("constraints").path(0).asText(),
                        where + ": placed on the one node");
                JsonNode limits = deploy.path("resources").path("limits");
                assertTrue(
                        limits.path("cpus").asDouble() > 0
                                && limits.path("cpus").asDouble() <= 2,
                        where + ": at most 2 CPUs");
                assertTrue(limits.has("memory"), where + ": a memory limit");
                reservedBytes += deploy.path("resources")
                        .path("reservations")
                        .path("memory")
                        .asLong();
                for (JsonNode port : s.path("ports")) {
                    assertEquals("host", port.path("mode").asText(), where + ": host-mode port, no routing mesh");
                }
                assertTrue(s.has("healthcheck"), where + ": health check");
            }
            assertTrue(reservedBytes <= 4L << 30, stack.getFileName() + ": reserves at most 4 GiB: " + reservedBytes);
        }
    }

    @Test
    void monitoringUsesTheRepositorysGrafanaFilesAndAtMostTwoCpus() throws Exception {
        JsonNode config = stackConfig(SWARM.resolve("monitoring.yml"));
        double cpus = 0;
        for (Map.Entry<String, JsonNode> service : iterable(config.get("services"))) {
            cpus += service.getValue()
                    .path("deploy")
                    .path("resources")
                    .path("limits")
                    .path("cpus")
                    .asDouble();
        }
        assertTrue(cpus <= 2.0, "monitoring is limited to 2 CPUs as in the study: " + cpus);

        Set<Path> mounted = new TreeSet<>();
        for (Map.Entry<String, JsonNode> c : iterable(config.get("configs"))) {
            mounted.add(Path.of(c.getValue().get("file").asText()).normalize());
        }
        Set<Path> grafanaFiles = new TreeSet<>();
        Path grafana = Home.root().resolve("grafana");
        try (Stream<Path> files = Files.walk(grafana)) {
            files.filter(p -> p.startsWith(grafana.resolve("provisioning"))
                            || p.startsWith(grafana.resolve("dashboards")))
                    .filter(Files::isRegularFile)
                    .forEach(p -> grafanaFiles.add(p.normalize()));
        }
        assertFalse(grafanaFiles.isEmpty());
        assertTrue(
                mounted.containsAll(grafanaFiles),
                "every provisioning file and dashboard is mounted as is: " + mounted);
    }

    @Test
    void theClustersPrometheusConfigsPassPromtool() throws Exception {
        for (String config : List.of("prometheus/prometheus.yml", "single-node/prometheus/prometheus.yml")) {
            Result check = run(
                    List.of("promtool", "check", "config", SWARM.resolve(config).toString()));
            assertEquals(0, check.code(), config + ": " + check.output());
            assertTrue(check.output().contains("SUCCESS"), config + ": " + check.output());
        }
    }

    @Test
    void everyDatabaseOfTheStudyHasAStackAndAClusterMatrixSpecThatBenchAccepts(@TempDir Path tmp) throws Exception {
        for (String database : STUDY_DATABASES) {
            assertTrue(Files.isRegularFile(SWARM.resolve(database + ".yml")), database + ": a stack");
            Path spec = clusterSpec(database);
            assertEquals(
                    database,
                    YAML.readTree(spec.toFile()).path("databases").asText(),
                    spec + " runs " + database + " only");
            Path out = tmp.resolve(database);
            CliResult dryRun =
                    CliResult.bench("matrix", "--spec", spec.toString(), "--dry-run", "--out", out.toString());
            assertEquals(0, dryRun.code(), spec + ": " + dryRun);
            assertTrue(dryRun.out().contains("36 experiments"), spec + ": " + dryRun);
            assertFalse(Files.exists(out), "a dry run writes nothing");
        }
    }

    @Test
    void everyAddressInTheClusterSpecsIsAServiceOfTheStacksOnItsClientPort() throws Exception {
        Map<String, Integer> clientPorts = new TreeMap<>();
        for (Path stack : stacks()) {
            for (Map.Entry<String, JsonNode> service :
                    iterable(stackConfig(stack).get("services"))) {
                clientPort(service.getValue()).ifPresent(port -> clientPorts.put(service.getKey(), port));
            }
        }
        for (String database : STUDY_DATABASES) {
            Path spec = clusterSpec(database);
            String url = YAML.readTree(spec.toFile()).path("db-url").asText();
            List<String> addresses = addresses(url);
            assertFalse(addresses.isEmpty(), spec + ": db-url names host:port addresses: " + url);
            for (String address : addresses) {
                int colon = address.lastIndexOf(':');
                assertTrue(colon > 0, spec + ": " + address + " is host:port");
                String host = address.substring(0, colon);
                int port = Integer.parseInt(address.substring(colon + 1));
                assertEquals(
                        clientPorts.get(host),
                        Integer.valueOf(port),
                        spec + ": " + address + " must be a service of the stacks on its client port: " + clientPorts);
            }
        }
    }

    /**
     * Hermetic: the refusals are asked of a Docker engine address of the test's own, where none
     * runs, so the test neither deploys to nor depends on the absence of the machine's real swarm.
     */
    @Test
    void benchSwarmListsTheStacksAndRefusesAnUnknownOneAndAMachineWithoutASwarm(@TempDir Path tmp) throws Exception {
        CliResult stacks = CliResult.bench("swarm", "stacks");
        assertEquals(0, stacks.code(), stacks.toString());
        List<String> listed = stacks.out().strip().lines().toList();
        assertEquals(
                stacks().stream()
                        .map(stack -> stack.getFileName().toString().replaceFirst("\\.yml$", ""))
                        .toList(),
                listed,
                "every stack file of docker-swarm/, in order");
        List<String> required = new ArrayList<>(STUDY_DATABASES);
        required.addAll(List.of("base", "monitoring"));
        assertTrue(listed.containsAll(required), "the study's databases, base and monitoring: " + listed);
        System.setProperty(Swarm.DOCKER_HOST_PROPERTY, "unix://" + tmp.resolve("no-docker-engine.sock"));
        try {
            refusesAnUnknownStackAndAMachineWithoutASwarm();
        } finally {
            System.clearProperty(Swarm.DOCKER_HOST_PROPERTY);
        }
    }

    private static void refusesAnUnknownStackAndAMachineWithoutASwarm() {

        CliResult unknown = CliResult.bench("swarm", "deploy", "oracle");
        assertEquals(2, unknown.code(), unknown.toString());
        assertTrue(
                unknown.err().contains("no stack 'oracle'") && unknown.err().contains("postgresql"),
                unknown.toString());
        assertEquals(1, unknown.err().strip().lines().count(), "one line: " + unknown);

        // no Docker engine answers on the test's own address, so no Swarm is reachable
        for (String action : List.of("deploy", "rm")) {
            CliResult noSwarm = CliResult.bench("swarm", action, "postgresql");
            assertEquals(2, noSwarm.code(), noSwarm.toString());
            assertTrue(noSwarm.err().contains("no Docker engine is reachable"), noSwarm.toString());
            assertEquals(1, noSwarm.err().strip().lines().count(), "one line: " + noSwarm);
        }
    }

    /** bench swarm up --use-existing names an engine that must answer; nothing is recorded when none does. */
    @Test
    void upOnAnExistingEngineRefusesOneThatDoesNotAnswerAndAHostWithoutUseExisting(@TempDir Path tmp) {
        Path state = SwarmFixture.SWARM_DIR.resolve("swarm.properties");
        boolean stateBefore = Files.exists(state);
        String nowhere = "unix://" + tmp.resolve("no-docker-engine.sock");

        CliResult noEngine = CliResult.bench("swarm", "up", "--use-existing", "--docker-host", nowhere);
        assertEquals(2, noEngine.code(), noEngine.toString());
        assertTrue(noEngine.err().contains("no Docker engine answers at " + nowhere), noEngine.toString());
        assertEquals(1, noEngine.err().strip().lines().count(), "one line: " + noEngine);
        assertEquals(stateBefore, Files.exists(state), "nothing recorded");

        CliResult hostAlone = CliResult.bench("swarm", "up", "--docker-host", nowhere);
        assertEquals(2, hostAlone.code(), hostAlone.toString());
        assertTrue(hostAlone.err().contains("--use-existing"), hostAlone.toString());
        assertEquals(1, hostAlone.err().strip().lines().count(), "one line: " + hostAlone);
    }

    private static Path clusterSpec(String database) {
        return SWARM.resolve("cluster").resolve(database + ".yaml");
    }

    /** The host:port pairs of a JDBC or mongodb:// URL (after // up to the next /) or of a contact-point list. */
    private static List<String> addresses(String url) {
        int scheme = url.indexOf("//");
        String hosts = scheme < 0 ? url : url.substring(scheme + 2);
        int path = hosts.indexOf('/');
        return List.of((path < 0 ? hosts : hosts.substring(0, path)).split(","));
    }

    private static Optional<Integer> clientPort(JsonNode service) {
        List<String> command = new ArrayList<>();
        service.path("command").forEach(c -> command.add(c.asText()));
        if (!command.isEmpty() && command.get(0).equals("mongos")) {
            return Optional.of(Integer.parseInt(command.get(command.indexOf("--port") + 1)));
        }
        String image = service.path("image").asText();
        return Optional.ofNullable(
                CLIENT_PORT_OF_IMAGE.get(image.substring(image.lastIndexOf('/') + 1, image.lastIndexOf(':'))));
    }

    private static List<Path> stacks() throws Exception {
        try (Stream<Path> files = Files.list(SWARM)) {
            return files.filter(p -> p.toString().endsWith(".yml")).sorted().toList();
        }
    }

    private static JsonNode stackConfig(Path stack) throws Exception {
        Result config = run(List.of("docker", "stack", "config", "-c", stack.toString()));
        assertEquals(0, config.code(), "docker stack config -c " + stack + ":\n" + config.output());
        return YAML.readTree(config.output());
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode object) {
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
        object.fields().forEachRemaining(entries::add);
        return entries;
    }

    private record Result(int code, String output) {}

    private static Result run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command)
                .directory(SWARM.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), String.join(" ", command) + " ended");
        return new Result(process.exitValue(), output);
    }
}
