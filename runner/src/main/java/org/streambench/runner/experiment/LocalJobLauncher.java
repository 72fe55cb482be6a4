package org.streambench.runner.experiment;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.streambench.db.Databases;
import org.streambench.local.Home;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.JobMain;
import org.streambench.operators.engine.EngineProvider;

/** The job in a JVM of its own on this machine, on its engine module's classpath, watching its runner. */
final class LocalJobLauncher implements JobLauncher {

    private final PrintWriter out;

    LocalJobLauncher(PrintWriter out) {
        this.out = out;
    }

    @Override
    public String cluster() {
        return "local";
    }

    @Override
    public Job launch(EngineProvider engine, ExperimentSpec spec, Path dir, Path jobTmp, String jobHeap, Path log)
            throws IOException {
        out.println("launching the " + engine.name() + " job (log: " + log + ")");
        String classes = Home.classpathOf(engine.module());
        Optional<String> jars = jarClasspath(engine.module(), classes);
        Optional<JobClassArchive> archive =
                jars.flatMap(classpath -> JobClassArchive.of(engine.name(), classpath, engine.jvmFlags(), Home.work()));
        List<String> archiveFlags = archive.map(JobClassArchive::jvmFlags).orElse(List.of());
        List<String> command = archiveFlags.isEmpty()
                ? command(engine, dir, jobTmp, jobHeap, classes, List.of())
                : command(engine, dir, jobTmp, jobHeap, jars.get(), archiveFlags);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(engine.environment());
        builder.environment().remove(ExperimentSpec.PASSWORD_ENVIRONMENT);
        if (spec.password() != null) {
            builder.environment().put(ExperimentSpec.PASSWORD_ENVIRONMENT, spec.password());
        }
        Process process = builder.start();
        return new Job() {
            @Override
            public Process process() {
                return process;
            }

            @Override
            public boolean overWhenWorkersAreDone() {
                return !JobClassArchive.writesAtExit(archiveFlags);
            }

            @Override
            public void ended() {
                archive.ifPresent(a -> a.jobEnded(!process.isAlive() && process.exitValue() == 0));
            }
        };
    }

    /** The job JVM's command on the engine module's classpath. */
    static List<String> command(EngineProvider engine, Path dir, Path jobTmp, String jobHeap) {
        return command(engine, dir, jobTmp, jobHeap, Home.classpathOf(engine.module()), List.of());
    }

    /**
     * The job JVM's command: its heap, its own temporary folder, the runner it watches, the engine's
     * flags, {@code jvmFlags} (the class archive's), on {@code classpath}.
     */
    static List<String> command(
            EngineProvider engine, Path dir, Path jobTmp, String jobHeap, String classpath, List<String> jvmFlags) {
        ProcessHandle runner = ProcessHandle.current();
        List<String> command = new ArrayList<>(List.of(Home.javaExecutable()));
        command.addAll(jvmFlags);
        command.addAll(List.of(
                "-Xmx" + jobHeap,
                "-Djava.io.tmpdir=" + jobTmp,
                "-D" + JobMain.OWN_TMP_PROPERTY + "=true",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-D" + JobMain.AWAIT_START_PROPERTY + "=true",
                "-D" + JobMain.RUNNER_PID_PROPERTY + "=" + runner.pid()));
        runner.info()
                .startInstant()
                .ifPresent(start -> command.add("-D" + JobMain.RUNNER_START_PROPERTY + "=" + start.toEpochMilli()));
        command.addAll(engine.jvmFlags());
        command.addAll(Databases.jvmFlags());
        command.addAll(List.of(
                "-cp",
                classpath,
                engine.mainClass(),
                dir.resolve(ExperimentRunner.JOB_SPEC).toString()));
        return command;
    }

    /**
     * {@code classpath} (the engine module's) with the module's jar in place of its classes folder
     * (class data sharing takes jars only), when the jar is at least as new as every compiled class;
     * else empty.
     */
    static Optional<String> jarClasspath(String module, String classpath) {
        Path target = Home.root().resolve(module).resolve("target");
        Path classes = target.resolve("classes");
        try (Stream<Path> files = Files.list(target);
                Stream<Path> compiled = Files.walk(classes)) {
            List<Path> jars = files.filter(f -> f.getFileName().toString().endsWith(".jar"))
                    .filter(f -> !f.getFileName().toString().matches(".*-(tests|sources|javadoc)\\.jar"))
                    .toList();
            if (jars.size() != 1) {
                return Optional.empty();
            }
            long built = Files.getLastModifiedTime(jars.get(0)).toMillis();
            for (Path file : (Iterable<Path>) compiled::iterator) {
                if (Files.getLastModifiedTime(file).toMillis() > built) {
                    return Optional.empty();
                }
            }
            return Optional.of(Arrays.stream(classpath.split(File.pathSeparator))
                    .map(entry -> Path.of(entry).equals(classes) ? jars.get(0).toString() : entry)
                    .collect(Collectors.joining(File.pathSeparator)));
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }
}
