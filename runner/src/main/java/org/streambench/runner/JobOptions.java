package org.streambench.runner;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** How the runner launches and watches the job JVM. */
final class JobOptions {

    @Option(
            names = "--metrics-host",
            defaultValue = "127.0.0.1",
            description = "Address the job's Prometheus endpoint binds to (default: ${DEFAULT-VALUE}).")
    String metricsHost;

    @Option(
            names = "--metrics-port",
            defaultValue = "9400",
            description = "Port of the job's Prometheus endpoint; 0 = any free port (default: ${DEFAULT-VALUE}).")
    String metricsPort;

    @Option(names = "--job-heap", defaultValue = "1g", description = "Heap of the job JVM (default: ${DEFAULT-VALUE}).")
    String jobHeap;

    @Option(
            names = "--startup-timeout",
            defaultValue = "180s",
            description = "How long the job may take to process its first record (default: ${DEFAULT-VALUE}).")
    String startupTimeout;

    @Option(
            names = "--stop-timeout",
            defaultValue = "60s",
            description = "How long the job may take to drain and exit after the run (default: ${DEFAULT-VALUE}).")
    String stopTimeout;

    ExperimentRunner runner(PrintWriter out) {
        if (!jobHeap.matches("\\d+[mMgG]")) {
            throw new UserError("--job-heap '" + jobHeap + "' must look like 512m or 2g");
        }
        return new ExperimentRunner(
                out,
                jobHeap,
                Inputs.seconds("--startup-timeout", startupTimeout),
                Inputs.seconds("--stop-timeout", stopTimeout));
    }
}
