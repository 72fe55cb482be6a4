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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Docker Swarm stack files, validated offline (there is no Docker engine here): Docker's own
 * {@code docker stack config} accepts each, and every service is pinned, limited, placed and
 * health-checked; the monitoring stack stays within the study's 2 CPUs, uses the repository's
 * grafana/ files themselves, and its Prometheus configuration passes promtool.
 */
@Tag("integration")
class SwarmStacksTest {

    private static final Path SWARM = Home.root().resolve("docker-swarm");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

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
    void theClustersPrometheusConfigPassesPromtool() throws Exception {
        Result check = run(List.of(
                "promtool",
                "check",
                "config",
                SWARM.resolve("prometheus/prometheus.yml").toString()));
        assertEquals(0, check.code(), check.output());
        assertTrue(check.output().contains("SUCCESS"), check.output());
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
