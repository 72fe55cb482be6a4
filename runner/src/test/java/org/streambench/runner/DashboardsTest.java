package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.Home;

/**
 * Every dashboard in grafana/dashboards validates against Grafana's dashboard JSON schema, derived
 * from the npm package {@code @grafana/schema} with no manual editing (grafana/schema-check).
 * (That every panel's query returns data from a real run is {@code MonitorTest}'s.)
 */
@Tag("integration")
class DashboardsTest {

    private static final Path CHECK = Home.root().resolve("grafana").resolve("schema-check");

    @BeforeAll
    static void installTheSchemaTools() throws Exception {
        Result install = run(List.of("npm", "ci", "--no-audit", "--no-fund"));
        assertEquals(0, install.code(), install.output());
    }

    @Test
    void everyDashboardValidatesAgainstGrafanasSchema() throws Exception {
        List<Path> dashboards = dashboards();
        assertTrue(dashboards.size() >= 1, "dashboards in grafana/dashboards");
        Result check = validate(dashboards);
        assertEquals(0, check.code(), check.output());
        for (Path dashboard : dashboards) {
            assertTrue(check.output().contains("valid: " + dashboard), check.output());
        }
    }

    @Test
    void aDashboardWithAPropertyGrafanaDoesNotKnowIsRefused(@TempDir Path dir) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode dashboard = (ObjectNode) json.readTree(dashboards().get(0).toFile());
        ((ObjectNode) dashboard.get("panels").get(0)).put("colour", "red");
        Path broken = dir.resolve("broken.json");
        json.writeValue(broken.toFile(), dashboard);
        Result check = validate(List.of(broken));
        assertEquals(1, check.code(), check.output());
        assertTrue(check.output().contains("INVALID: " + broken), check.output());
        assertTrue(check.output().contains("colour"), check.output());
    }

    static List<Path> dashboards() throws IOException {
        try (Stream<Path> files = Files.list(Home.root().resolve("grafana").resolve("dashboards"))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    private static Result validate(List<Path> dashboards) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", "validate.mjs"));
        dashboards.forEach(d -> command.add(d.toString()));
        return run(command);
    }

    private record Result(int code, String output) {}

    private static Result run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command)
                .directory(CHECK.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), String.join(" ", command) + " ended");
        return new Result(process.exitValue(), String.join(" ", command) + ":\n" + output);
    }
}
