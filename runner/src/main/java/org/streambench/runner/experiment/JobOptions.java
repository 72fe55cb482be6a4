package org.streambench.runner.experiment;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.streambench.local.CleanupOnExit;
import org.streambench.local.Home;
import org.streambench.local.UserError;
import org.streambench.runner.monitor.Prometheus;
import org.streambench.runner.yarn.LocalYarn;
import org.streambench.runner.yarn.YarnCluster;
import picocli.CommandLine.Option;

/** How the runner launches and watches the job JVM. */
public final class JobOptions {

    @Option(
            names = "--metrics-host",
            defaultValue = "127.0.0.1",
            description = "Address the job's Prometheus endpoints bind to (default: ${DEFAULT-VALUE}; 0.0.0.0 for"
                    + " workers on other machines, which then name their machine as their endpoint).")
    String metricsHost;

    @Option(
            names = "--metrics-port",
            paramLabel = "PORT",
            defaultValue = "9400",
            description = "Port of the job's Prometheus endpoint; 0 = any free port (default: ${DEFAULT-VALUE}).")
    public String metricsPort;

    @Option(
            names = "--collector-bind",
            defaultValue = "127.0.0.1",
            description = "Address the runner's collector, which the job's workers report to, listens on"
                    + " (default: ${DEFAULT-VALUE}; 0.0.0.0 for workers on other machines).")
    String collectorBind;

    @Option(
            names = "--collector-host",
            description = "Address the job's workers reach the collector by (default: the bind address, or this"
                    + " machine's name when it binds 0.0.0.0).")
    String collectorHost;

    @Option(
            names = "--cluster",
            defaultValue = "local",
            description = "Where the job runs: local (its own JVM on this machine) or yarn (submitted to the YARN"
                    + " of --yarn-conf, else $HADOOP_CONF_DIR, else the suite's own: ./bench yarn start)"
                    + " (default: ${DEFAULT-VALUE}).")
    String cluster;

    @Option(
            names = "--yarn-conf",
            paramLabel = "DIR",
            description = "With --cluster yarn: the folder with the cluster's yarn-site.xml and core-site.xml.")
    Path yarnConf;

    @Option(
            names = "--job-heap",
            paramLabel = "SIZE",
            defaultValue = "1g",
            description = "Heap of the job JVM (default: ${DEFAULT-VALUE}).")
    String jobHeap;

    @Option(
            names = "--startup-timeout",
            paramLabel = "DURATION",
            defaultValue = "180s",
            description = "How long the job may take to process its first record (default: ${DEFAULT-VALUE}).")
    String startupTimeout;

    @Option(
            names = "--stop-timeout",
            paramLabel = "DURATION",
            defaultValue = "60s",
            description = "How long the job may take to drain and exit after the run (default: ${DEFAULT-VALUE}).")
    String stopTimeout;

    @Option(
            names = "--monitor",
            description = "Watch it live: use the suite's Prometheus (bench monitor), starting it on port "
                    + Prometheus.DEFAULT_PORT
                    + " if it does not run (and stopping it at the end), and print where to look.")
    public boolean monitor;

    /** With --monitor: what would keep Prometheus from starting, checked before anything starts. */
    public void checkMonitor() {
        if (monitor) {
            new Prometheus(Home.work(), new PrintWriter(PrintWriter.nullWriter()))
                    .checkStartable(Prometheus.DEFAULT_PORT);
        }
    }

    /**
     * With --monitor: the suite's Prometheus, started now if it does not run; returns what ends the
     * watching (it stops a Prometheus started here, also when the command is interrupted).
     */
    public Runnable startMonitor(PrintWriter out) throws IOException, InterruptedException {
        if (!monitor) {
            return () -> {};
        }
        Prometheus prometheus = new Prometheus(Home.work(), out);
        boolean startedHere = prometheus.running().isEmpty();
        Prometheus.Running running = prometheus.start(Prometheus.DEFAULT_PORT);
        out.println("watch it live: " + running.graphUrl(LIVE_THROUGHPUT));
        out.println("  (Grafana: the dashboards in grafana/dashboards, with the datasource in grafana/provisioning)");
        if (!startedHere) {
            return () -> {};
        }
        Runnable stop = () -> {
            try {
                prometheus.stop();
            } catch (IOException | InterruptedException e) {
                out.println("could not stop prometheus (pid " + running.pid() + "): " + e);
            }
        };
        CleanupOnExit.Registration onExit =
                CleanupOnExit.register("stop the Prometheus started for this command", stop);
        return () -> {
            onExit.close();
            stop.run();
            out.println(
                    "prometheus stopped: it was started for this command (./bench monitor start keeps one running)");
        };
    }

    private static final String LIVE_THROUGHPUT =
            "sum by (engine, database, pattern, blob_bytes) (rate(streambench_records_total[5s]))";

    public ExperimentRunner runner(PrintWriter out) {
        if (!jobHeap.matches("[0-9]{1,9}[mMgG]")) {
            throw new UserError("--job-heap '" + jobHeap + "' must look like 512m or 2g");
        }
        if (megabytes(jobHeap) < MIN_JOB_HEAP_MB) {
            throw new UserError("--job-heap '" + jobHeap + "' is too small for an engine's JVM; give at least "
                    + MIN_JOB_HEAP_MB + "m");
        }
        requireBindable(collectorBind);
        return new ExperimentRunner(
                out,
                jobHeap,
                atLeastOneSecond("--startup-timeout", startupTimeout),
                atLeastOneSecond("--stop-timeout", stopTimeout),
                collectorBind,
                advertisedCollectorHost(),
                JobLauncher.of(yarn(), out));
    }

    private static final int MIN_JOB_HEAP_MB = 64;

    private static long megabytes(String size) {
        long amount = Long.parseLong(size.substring(0, size.length() - 1));
        return Character.toLowerCase(size.charAt(size.length() - 1)) == 'g' ? amount * 1024 : amount;
    }

    private static int atLeastOneSecond(String option, String text) {
        int seconds = Inputs.seconds(option, text);
        if (seconds < 1) {
            throw new UserError(option + " '" + text + "' gives the job no time; give at least 1s");
        }
        return seconds;
    }

    /** The collector must be able to listen there, checked before any server starts. */
    private static void requireBindable(String host) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(host, 0));
        } catch (IOException | IllegalArgumentException e) {
            throw new UserError("--collector-bind " + host + ": the runner cannot listen there (" + e.getMessage()
                    + "); give an address of this machine, e.g. 127.0.0.1 or 0.0.0.0");
        }
    }

    /** Whether the job is to run on YARN (--cluster yarn). */
    public boolean onYarn() {
        return cluster.equals("yarn");
    }

    /** With --cluster yarn: the cluster to submit to, checked to answer; empty for local jobs. */
    private Optional<YarnCluster> yarn() {
        if (cluster.equals("local")) {
            if (yarnConf != null) {
                throw new UserError("--yarn-conf is for --cluster yarn; add --cluster yarn or drop --yarn-conf");
            }
            return Optional.empty();
        }
        if (!cluster.equals("yarn")) {
            throw new UserError("--cluster '" + cluster + "' must be local or yarn");
        }
        if (yarnConf != null && !Files.isDirectory(yarnConf)) {
            throw new UserError("--yarn-conf " + yarnConf + " is not a folder; give the folder holding yarn-site.xml");
        }
        YarnCluster chosen = YarnCluster.chosen(
                        Optional.ofNullable(yarnConf),
                        System.getenv(),
                        new LocalYarn(Home.work(), new PrintWriter(PrintWriter.nullWriter())))
                .orElseThrow(() -> new UserError("--cluster yarn: no YARN to submit to; start the suite's own with"
                        + " ./bench yarn start, or give --yarn-conf DIR (or set HADOOP_CONF_DIR)"));
        chosen.info(); // unreachable: a UserError that says how to fix it
        return Optional.of(chosen);
    }

    private String advertisedCollectorHost() {
        if (collectorHost != null) {
            return collectorHost;
        }
        if (!collectorBind.equals("0.0.0.0")) {
            return collectorBind;
        }
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (UnknownHostException e) {
            throw new UserError("--collector-bind 0.0.0.0: this machine's name is unknown (" + e.getMessage()
                    + "); give the address workers reach the runner by with --collector-host");
        }
    }
}
