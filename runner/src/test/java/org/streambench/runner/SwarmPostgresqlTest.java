package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.runner.SwarmFixture.PRIMARY_URL;
import static org.streambench.runner.SwarmFixture.assertVerifiedRun;
import static org.streambench.runner.SwarmFixture.psql;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main suite's swarm test: on a single-node swarm of the test's own (bench swarm up starts a
 * Docker engine under the test's work folder, bench swarm images builds the PostgreSQL image
 * offline), the PostgreSQL stack, a primary and two streaming replicas, deployed until healthy; a
 * bounded run against the primary verified; both replicas hold what the primary holds; and bench
 * swarm down leaves no container, bridge, volume or process of the engine behind. The heavier
 * stacks are SwarmTest's ({@code ./bench test --swarm}).
 */
@Tag("integration")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@OneForkAtATime("docker")
class SwarmPostgresqlTest {

    private final SwarmFixture swarm = new SwarmFixture();

    @BeforeAll
    static void upWithItsImage() {
        SwarmFixture.up("postgresql");
    }

    @AfterAll
    static void downLeavesNothing() throws Exception {
        SwarmFixture.downLeavesNothing();
    }

    @AfterEach
    void removeTheStack() {
        swarm.removeDeployed();
    }

    @Test
    void aVerifiedRunAgainstThePrimaryAndTheReplicasFollow(@TempDir Path tmp) throws Exception {
        swarm.deployHealthy("postgresql");
        CliResult status = CliResult.bench("swarm", "status");
        assertTrue(status.out().startsWith("the suite's own engine: dockerd pid "), status.toString());
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
}
