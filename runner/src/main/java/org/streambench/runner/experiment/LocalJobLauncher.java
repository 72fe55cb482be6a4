package org.streambench.runner.experiment;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        ProcessBuilder builder = new ProcessBuilder(command(engine, dir, jobTmp, jobHeap))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(engine.environment());
        builder.environment().remove(ExperimentSpec.PASSWORD_ENVIRONMENT);
        if (spec.password() != null) {
            builder.environment().put(ExperimentSpec.PASSWORD_ENVIRONMENT, spec.password());
        }
        Process process = builder.start();
        return () -> process;
    }

    /** The job JVM's command: its heap, its own temporary folder, the runner it watches, the engine's flags. */
    static List<String> command(EngineProvider engine, Path dir, Path jobTmp, String jobHeap) {
        ProcessHandle runner = ProcessHandle.current();
        List<String> command = new ArrayList<>(List.of(
                Home.javaExecutable(),
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
                Home.classpathOf(engine.module()),
                engine.mainClass(),
                dir.resolve(ExperimentRunner.JOB_SPEC).toString()));
        return command;
    }
}
