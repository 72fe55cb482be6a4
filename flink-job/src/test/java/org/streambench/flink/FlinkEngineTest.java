package org.streambench.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.generator.Pattern;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.engine.RecordingYarnJob;

/** Flink's YARN submission, without a cluster: application mode, one attempt, one slot per TaskManager, jars shipped. */
class FlinkEngineTest {

    @Test
    void submitsInApplicationModeWithTheJarsShippedAndThePasswordInTheContainersEnvironment(@TempDir Path tmp)
            throws Exception {
        ExperimentSpec spec = ExperimentSpec.builder("flink", "postgresql", Pattern.UPDATE)
                .parallelism(2)
                .databaseSettings(Map.of("url", "jdbc:postgresql://db/x", "password", "s3cret"))
                .build();
        String dist = "/m2/flink-yarn-1.20.1.jar";
        String hadoop = "/m2/hadoop-client-api-3.4.2.jar";
        RecordingYarnJob job = new RecordingYarnJob(spec, tmp)
                .withJars(FlinkEngine.MODULE, "/m2/flink-core-1.20.1.jar", "/m2/db-hbase-0.1.0.jar")
                .withYarnJars(FlinkEngine.MODULE, dist, hadoop);

        List<String> command = new FlinkEngine().yarnSubmitCommand(job);

        assertEquals(
                List.of("org.streambench.flink.YarnLauncher", job.settingsFile().toString()),
                command.subList(command.size() - 2, command.size()));
        Properties settings = job.writtenSettings();
        assertEquals("yarn-application", settings.getProperty("execution.target"));
        assertEquals("org.streambench.flink.FlinkJob", settings.getProperty("$internal.application.main"));
        assertEquals("spec.properties", settings.getProperty("$internal.application.program-args"));
        assertEquals(dist, settings.getProperty("yarn.flink-dist-jar"));
        List<String> shipped = List.of(settings.getProperty("yarn.ship-files").split(";"));
        assertTrue(
                shipped.containsAll(List.of(
                        "/m2/flink-core-1.20.1.jar", hadoop, job.specFile().toString())),
                shipped.toString());
        assertFalse(shipped.contains(dist), "the dist jar is Flink's own, not shipped again");
        assertEquals("1", settings.getProperty("yarn.application-attempts"), "a failed job fails the run");
        assertEquals("1", settings.getProperty("taskmanager.numberOfTaskSlots"));
        assertEquals("768m", settings.getProperty("taskmanager.memory.task.heap.size"));
        assertEquals("streambench-test-tag", settings.getProperty("yarn.tags"));
        assertEquals(job.moduleJar(FlinkEngine.MODULE).toString(), settings.getProperty("pipeline.jars"));
        assertEquals("s3cret", settings.getProperty("containerized.master.env.STREAMBENCH_DB_PASSWORD"));
        assertEquals("s3cret", settings.getProperty("containerized.taskmanager.env.STREAMBENCH_DB_PASSWORD"));
        assertTrue(settings.getProperty("env.java.opts.all").contains("--add-opens=java.base/java.lang=ALL-UNNAMED"));
        assertTrue(
                settings.getProperty("env.java.opts.all").contains(RecordingYarnJob.CONNECTOR_FLAG),
                "the connectors' JVM flags reach the containers");
        assertEquals(
                "1024m, 768m, 1",
                String.join(", ", job.requestedResources().values()),
                "what the run records as asked of YARN");
        assertFalse(String.join(" ", command).contains("s3cret"), "no password on the submitter's command line");
    }

    @Test
    void theBufferTimeoutIsFlinksOwnDefaultUnlessSetToAWholeNumberOfAtLeastZero() {
        FlinkEngine flink = new FlinkEngine();
        assertEquals(Map.of("bufferTimeoutMillis", "100"), flink.defaultSettings());
        flink.checkSettings(Map.of("bufferTimeoutMillis", "0"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> flink.checkSettings(Map.of("bufferTimeoutMillis", "-1")));
        assertEquals("--engine-setting bufferTimeoutMillis '-1' must be a whole number of at least 0", e.getMessage());
    }
}
