package org.streambench.runner.swarm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.Home;
import org.streambench.runner.monitor.ScrapeTargets;

/** The exporters a stack declares by its services' label, and their names forgotten when the swarm goes. */
class SwarmExportersTest {

    private static final Path SINGLE_NODE = Home.root().resolve("docker-swarm/single-node");

    @Test
    void theSingleNodeMonitoringStackDeclaresItsExportersEachOnTheAddressItListensOn() throws Exception {
        Path stack = SINGLE_NODE.resolve("monitoring.yml");
        List<ScrapeTargets.Exporter> exporters = Swarm.exportersOf(stack);
        assertEquals(
                List.of(
                        new ScrapeTargets.Exporter("swarm-node", URI.create("http://127.0.0.1:29100/metrics")),
                        new ScrapeTargets.Exporter("swarm-postgresql", URI.create("http://127.0.0.1:29187/metrics")),
                        new ScrapeTargets.Exporter("swarm-mariadb", URI.create("http://127.0.0.1:29104/metrics")),
                        new ScrapeTargets.Exporter("swarm-redis", URI.create("http://127.0.0.1:29121/metrics"))),
                exporters);
        String file = Files.readString(stack);
        for (ScrapeTargets.Exporter exporter : exporters) {
            assertTrue(
                    file.contains("--web.listen-address=" + exporter.url().getAuthority()),
                    exporter + " is where a service of the stack listens");
        }
    }

    @Test
    void forgettingTheStacksExportersLeavesTheUsersOwn(@TempDir Path work) throws Exception {
        ScrapeTargets targets = new ScrapeTargets(work);
        targets.addExporter(ScrapeTargets.parseExporter("swarm-node=http://127.0.0.1:29100/metrics"));
        targets.addExporter(ScrapeTargets.parseExporter("dbhost=http://10.0.0.5:9100/metrics"));
        StringWriter said = new StringWriter();
        new Swarm(SINGLE_NODE, null, targets, new PrintWriter(said, true)).forgetExporters();
        assertEquals(
                List.of("dbhost"),
                targets.exporters().stream().map(ScrapeTargets.Exporter::name).toList());
        assertEquals("no longer scraping exporter swarm-node", said.toString().strip());
    }
}
