package org.streambench.operators;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The common main of every engine job: read the spec, start the runtime, let the engine run the
 * pipeline until the runner stops it, then write the job report the runner verifies.
 * Usage of an engine main: {@code <spec.properties> <report.properties>}.
 */
public final class JobMain {

    /** The engine-specific part: build the pipeline and block until it has finished. */
    public interface Pipeline {
        void run(ExperimentSpec spec) throws Exception;
    }

    private JobMain() {
    }

    public static void run(String[] args, String engineVersion, Pipeline pipeline) {
        if (args.length != 2) {
            System.err.println("usage: <spec.properties> <report.properties> (the bench runner launches this)");
            System.exit(2);
        }
        int exitCode = 0;
        Properties report = new Properties();
        report.setProperty("engineVersion", engineVersion);
        JobRuntime runtime = null;
        try {
            ExperimentSpec spec = ExperimentSpec.read(Path.of(args[0]));
            runtime = JobRuntime.start(spec);
            pipeline.run(spec);
            report.setProperty("status", "finished");
        } catch (Throwable t) {
            exitCode = 1;
            report.setProperty("status", "failed");
            report.setProperty("error", String.valueOf(rootCause(t)));
            t.printStackTrace();
        }
        if (runtime != null) {
            runtime.requestStop();
            runtime.describe(report);
            runtime.close();
        }
        try (Writer out = Files.newBufferedWriter(Path.of(args[1]), StandardCharsets.UTF_8)) {
            report.store(out, "streambench job report");
        } catch (IOException e) {
            System.err.println("cannot write the job report " + args[1] + ": " + e);
            exitCode = 1;
        }
        System.exit(exitCode);
    }

    private static Throwable rootCause(Throwable t) {
        Throwable cause = t;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}
