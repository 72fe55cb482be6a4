package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.Home;
import org.streambench.operators.engine.EngineProvider;
import org.streambench.runner.yarn.YarnCluster;

/** The launcher is chosen once: local without a cluster, YARN with one; the local job JVM's command. */
class JobLauncherTest {

    private static final PrintWriter QUIET = new PrintWriter(PrintWriter.nullWriter());

    @Test
    void withoutAClusterTheJobRunsHereAndWithOneOnYarn(@TempDir Path conf) throws Exception {
        assertEquals("local", JobLauncher.of(Optional.empty(), QUIET).cluster());
        Files.writeString(conf.resolve(YarnCluster.YARN_SITE), "<configuration/>");
        JobLauncher yarn = JobLauncher.of(Optional.of(YarnCluster.fromConf(conf, "--yarn-conf")), QUIET);
        assertEquals("yarn", yarn.cluster());
        assertTrue(yarn instanceof YarnJobLauncher);
    }

    @Test
    void theLocalJobJvmRunsTheEnginesMainOnItsModulesClasspathAndWatchesItsRunner(@TempDir Path run) {
        EngineProvider spark = Engines.parse("spark");
        List<String> command = LocalJobLauncher.command(spark, run, run.resolve("job-tmp"), "768m");
        assertTrue(command.contains("-Xmx768m"), command.toString());
        assertTrue(command.contains("-Djava.io.tmpdir=" + run.resolve("job-tmp")), command.toString());
        assertTrue(command.containsAll(spark.jvmFlags()), "the engine's JDK 17 flags");
        assertTrue(
                command.contains(
                        "-Dstreambench.runner.pid=" + ProcessHandle.current().pid()),
                command.toString());
        assertEquals(
                List.of(
                        spark.mainClass(),
                        run.resolve(ExperimentRunner.JOB_SPEC).toString()),
                command.subList(command.size() - 2, command.size()));
        String classpath = command.get(command.indexOf("-cp") + 1);
        assertTrue(classpath.contains("spark-streaming_2.12"), "the engine module's own classpath");
    }

    /** Class data sharing takes jars only: the built module's jar stands in for its classes folder. */
    @Test
    void theJobsClassArchiveGetsTheModulesJarInPlaceOfItsClasses() {
        EngineProvider flink = Engines.parse("flink");
        String jars = LocalJobLauncher.jarClasspath(flink.module(), Home.classpathOf(flink.module()))
                .orElseThrow();
        String first = jars.split(java.io.File.pathSeparator)[0];
        assertTrue(first.endsWith(".jar") && first.contains(flink.module()), first);
        assertTrue(
                java.util.Arrays.stream(jars.split(java.io.File.pathSeparator)).allMatch(e -> e.endsWith(".jar")),
                "no folder: " + jars);
    }
}
