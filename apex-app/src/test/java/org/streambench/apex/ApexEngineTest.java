package org.streambench.apex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.generator.Pattern;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.engine.RecordingYarnJob;

/**
 * Apex's YARN submission, without a cluster: the job's jars shipped, but none of Apex's Hadoop 2,
 * its Guava 11 or the HBase client with Hadoop's classes; the build's yarn-lib/ instead.
 */
class ApexEngineTest {

    @Test
    void shipsTheJobsJarsAndYarnLibButNotApexsHadoopGuavaOrTheHBaseClient(@TempDir Path tmp) throws Exception {
        ExperimentSpec spec = ExperimentSpec.builder("apex", "hbase", Pattern.INSERT)
                .databaseSettings(Map.of("url", "127.0.0.1:2181", "password", "s3cret"))
                .build();
        Path yarnLib = Files.createDirectories(tmp.resolve(ApexEngine.MODULE).resolve("target/yarn-lib"));
        Path guava20 = Files.createFile(yarnLib.resolve("guava-20.0.jar"));
        Path hbaseForYarn = Files.createFile(yarnLib.resolve("apex-app-0.1.0-hbase-client-for-yarn.jar"));
        String connector = "/m2/org/streambench/db-hbase/0.1.0/db-hbase-0.1.0.jar";
        String histogram = "/m2/HdrHistogram-2.2.2.jar";
        RecordingYarnJob job = new RecordingYarnJob(spec, tmp)
                .withJars(
                        ApexEngine.MODULE,
                        "/m2/hadoop-common-2.6.0.jar",
                        "/m2/guava-11.0.2.jar",
                        "/m2/hbase-shaded-client-2.6.4.jar",
                        "/m2/jetty-6.1.26.jar",
                        "/m2/apex-engine-3.7.0.jar",
                        connector,
                        histogram)
                .withJars("operators", histogram)
                .withJars("db-connectors/all", connector, "/m2/hbase-shaded-client-2.6.4.jar")
                .withYarnJars(ApexEngine.MODULE, "/m2/hadoop-client-api-3.4.2.jar");

        List<String> command = new ApexEngine().yarnSubmitCommand(job);

        assertEquals(
                List.of("org.streambench.apex.ApexOnYarn", job.specFile().toString()),
                command.subList(command.size() - 2, command.size()));
        String classpath = command.get(command.indexOf("-cp") + 1);
        assertTrue(classpath.startsWith("/m2/hadoop-client-api-3.4.2.jar:"), "Hadoop 3's client first: " + classpath);
        assertFalse(classpath.contains("hadoop-common-2.6.0"), "not Apex's Hadoop 2: " + classpath);
        Properties settings = job.writtenSettings();
        List<String> shipped = List.of(settings.getProperty("libraryJars").split(","));
        assertTrue(
                shipped.containsAll(List.of(
                        job.moduleJar(ApexEngine.MODULE).toString(),
                        connector,
                        histogram,
                        guava20.toString(),
                        hbaseForYarn.toString())),
                shipped.toString());
        for (String kept : List.of("guava-11.0.2", "hbase-shaded-client", "jetty-6", "apex-engine", "hadoop-common")) {
            assertTrue(shipped.stream().noneMatch(jar -> jar.contains(kept)), kept + " shipped: " + shipped);
        }
        assertEquals("768", settings.getProperty("containerMemoryMb"));
        assertEquals(
                String.join(" ", new ApexEngine().jvmFlags()) + " " + RecordingYarnJob.CONNECTOR_FLAG,
                settings.getProperty("containerJvmOptions"),
                "the engine's flags whole (a flag and its value may be two elements), then the connectors'");
        assertEquals("s3cret", settings.getProperty("password"), "Apex cannot set its containers' environment");
        assertFalse(String.join(" ", command).contains("s3cret"), "no password on the submitter's command line");
        assertTrue(
                Files.isDirectory(job.settingsFile().resolveSibling("apex")),
                "the application's files in the run's folder");
    }

    @Test
    void streamLocalityAndMaxInFlightAreChecked() {
        ApexEngine apex = new ApexEngine();
        assertEquals(
                "--engine-setting streamLocality 'far' must be none, container_local or thread_local",
                assertThrows(IllegalArgumentException.class, () -> apex.checkSettings(Map.of("streamLocality", "far")))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> apex.checkSettings(Map.of("maxInFlight", "-3")));
        apex.checkSettings(apex.defaultSettings());
    }
}
