package org.streambench.runner.yarn;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.streambench.local.Folders;
import org.streambench.local.Home;
import org.streambench.local.ProcessStopping;
import org.streambench.local.UserError;
import org.streambench.servers.HadoopFiles;
import org.streambench.servers.ServerState.ProcessRef;

/**
 * A real pseudo-distributed YARN on this machine: a ResourceManager and a NodeManager, each its own
 * detached JVM from the Hadoop jars that Maven Central ships (module runner/local-yarn; no Hadoop
 * distribution needed), configuration, data and logs under {@code <work>/yarn}, every port on
 * 127.0.0.1. Started and stopped by PID, like the local database servers; it keeps running until
 * {@code bench yarn stop}.
 *
 * <p>Ports, from the first one ({@code --port}, default {@value #DEFAULT_PORT}): scheduler +0,
 * resource tracker +1, ResourceManager client +2, admin +3, ResourceManager web/REST +4,
 * NodeManager +5, localizer +6, NodeManager web +7.
 */
public final class LocalYarn {

    public static final int DEFAULT_PORT = 18030;
    public static final int PORT_COUNT = 8;
    static final String STATE_FILE = "yarn.properties";
    private static final String MODULE = "runner/local-yarn";
    private static final long START_TIMEOUT_SECONDS = 180;
    private static final long STOP_TIMEOUT_SECONDS = 30;
    private static final int NODE_MEMORY_MB = 8192;
    private static final int NODE_VCORES = 8;

    /** The module opens that Hadoop 3.4's code needs on JDK 17 (its servers, and containers that run it). */
    static final List<String> JDK17_OPENS = Stream.of(
                    "java.lang",
                    "java.lang.reflect",
                    "java.lang.invoke",
                    "java.util",
                    "java.util.concurrent",
                    "java.io",
                    "java.net",
                    "java.nio",
                    "sun.nio.ch",
                    "sun.nio.cs",
                    "sun.security.action",
                    "sun.util.calendar")
            .map(pkg -> "--add-opens=java.base/" + pkg + "=ALL-UNNAMED")
            .toList();

    private final Path dir;
    private final PrintWriter out;

    public LocalYarn(Path work, PrintWriter out) {
        this.dir = work.resolve("yarn");
        this.out = out;
    }

    /** A local YARN the suite started: its two processes and its first port. */
    public record Running(ProcessRef resourceManager, ProcessRef nodeManager, int port) {
        boolean allAlive() {
            return resourceManager.handle().isPresent()
                    && nodeManager != null
                    && nodeManager.handle().isPresent();
        }

        /** The ResourceManager's web UI and REST API. */
        public URI webUrl() {
            return URI.create("http://127.0.0.1:" + webPort(port));
        }

        /** Whether either process still runs (a half-dead YARN still needs a stop). */
        boolean anyAlive() {
            return resourceManager.handle().isPresent()
                    || (nodeManager != null && nodeManager.handle().isPresent());
        }
    }

    public Path dir() {
        return dir;
    }

    public Path conf() {
        return dir.resolve("conf");
    }

    static int webPort(int port) {
        return port + 4;
    }

    /** The local YARN, if any of its processes runs. */
    public Optional<Running> running() {
        Path state = dir.resolve(STATE_FILE);
        if (!Files.isRegularFile(state)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(state, StandardCharsets.UTF_8)) {
            p.load(in);
            String nodeManager = p.getProperty("nodeManager");
            Running running = new Running(
                    ProcessRef.parse(p.getProperty("resourceManager")),
                    nodeManager == null ? null : ProcessRef.parse(nodeManager),
                    Integer.parseInt(p.getProperty("port")));
            return running.anyAlive() ? Optional.of(running) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** What {@link #start} would refuse (not built, a port taken), checked before anything starts. */
    private void checkStartable(int port) {
        if (running().isPresent()) {
            return;
        }
        Home.classpathOf(MODULE);
        if (port + PORT_COUNT - 1 > 65535) {
            throw new UserError("--port " + port + ": YARN needs " + PORT_COUNT + " ports from it; choose one up to "
                    + (65536 - PORT_COUNT));
        }
        for (int each = port; each < port + PORT_COUNT; each++) {
            try (ServerSocket probe = new ServerSocket()) {
                probe.setReuseAddress(true);
                probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), each));
            } catch (IOException e) {
                throw new UserError("port " + each + " is in use; YARN needs ports " + port + "-"
                        + (port + PORT_COUNT - 1) + ": choose others with --port");
            }
        }
    }

    /**
     * Starts the ResourceManager, then the NodeManager, and returns once the ResourceManager answers
     * and the NodeManager has registered with it; or returns the YARN that runs.
     */
    public Running start(int port) throws IOException, InterruptedException {
        Optional<Running> already = running();
        if (already.isPresent() && !already.get().allAlive()) {
            out.println("yarn was running only in part (one of its processes had ended); restarting it");
            stop();
            already = Optional.empty();
        }
        if (already.isPresent()) {
            out.println("yarn already runs: " + already.get().webUrl() + " (ResourceManager pid "
                    + already.get().resourceManager().pid() + ")");
            return already.get();
        }
        checkStartable(port);
        Files.createDirectories(dir);
        writeConfiguration(port);
        out.println("starting yarn on 127.0.0.1:" + port + "-" + (port + PORT_COUNT - 1) + " (data and logs in " + dir
                + ") ...");
        long started = System.nanoTime();
        Process resourceManager = launch(
                "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager", dir.resolve("resourcemanager.log"));
        Running running = new Running(ProcessRef.of(resourceManager.toHandle()), null, port);
        writeState(running); // published at once, so that an interrupted start can still be found and stopped
        Process nodeManager = null;
        try {
            YarnCluster cluster = YarnCluster.local(conf());
            long deadline = started + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
            await(resourceManager, "ResourceManager", deadline, () -> cluster.infoIfAnswering()
                    .filter(info -> info.state().equals("STARTED"))
                    .isPresent());
            nodeManager =
                    launch("org.apache.hadoop.yarn.server.nodemanager.NodeManager", dir.resolve("nodemanager.log"));
            running = new Running(running.resourceManager(), ProcessRef.of(nodeManager.toHandle()), port);
            writeState(running);
            await(nodeManager, "NodeManager", deadline, () -> cluster.infoIfAnswering()
                    .filter(info -> info.runningNodes() > 0)
                    .isPresent());
            YarnCluster.Info info = cluster.info();
            out.println("yarn " + info.hadoopVersion() + " ready after "
                    + Math.round((System.nanoTime() - started) / 1e8) / 10.0 + " s: " + running.webUrl()
                    + " (ResourceManager pid " + resourceManager.pid() + ", NodeManager pid " + nodeManager.pid()
                    + ", " + NODE_MEMORY_MB + " MB / " + NODE_VCORES + " vcores)");
            return running;
        } catch (RuntimeException | Error | InterruptedException e) {
            stopProcesses(running);
            Files.deleteIfExists(dir.resolve(STATE_FILE));
            throw e;
        }
    }

    /** Stops the local YARN (NodeManager and its containers first, then the ResourceManager); false if none ran. */
    public boolean stop() throws IOException {
        Optional<Running> running = running();
        if (running.isEmpty()) {
            Files.deleteIfExists(dir.resolve(STATE_FILE));
            return false;
        }
        stopProcesses(running.get());
        Files.deleteIfExists(dir.resolve(STATE_FILE));
        return true;
    }

    private void stopProcesses(Running running) {
        if (running.nodeManager() != null) {
            running.nodeManager().handle().ifPresent(nodeManager -> {
                // containers are launched in sessions of their own: stop those the NodeManager leaves
                List<ProcessHandle> containers = nodeManager.descendants().toList();
                ProcessStopping.terminate(out, "the YARN NodeManager", List.of(nodeManager), STOP_TIMEOUT_SECONDS);
                containers.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            });
        }
        running.resourceManager()
                .handle()
                .ifPresent(resourceManager -> ProcessStopping.terminate(
                        out, "the YARN ResourceManager", List.of(resourceManager), STOP_TIMEOUT_SECONDS));
    }

    private static void await(Process process, String name, long deadline, BooleanSupplier ready)
            throws InterruptedException {
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new UserError("the YARN " + name + " did not start (exit " + process.exitValue()
                        + "); see its log" + " in work/yarn/");
            }
            if (ready.getAsBoolean()) {
                return;
            }
            Thread.sleep(500);
        }
        throw new UserError("the YARN " + name + " did not become ready within " + START_TIMEOUT_SECONDS
                + " s; see its log in work/yarn/");
    }

    private Process launch(String mainClass, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of("setsid", Home.javaExecutable(), "-Xms256m", "-Xmx512m"));
        command.addAll(JDK17_OPENS);
        command.addAll(List.of(
                "-Dhadoop.log.dir=" + dir.resolve("logs"),
                "-cp",
                conf() + File.pathSeparator + Home.classpathOf(MODULE),
                mainClass));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // containers run $JAVA_HOME/bin/java
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("HADOOP_CONF_DIR");
        return builder.start();
    }

    private void writeConfiguration(int port) throws IOException {
        Path conf = Files.createDirectories(conf());
        Files.writeString(
                conf.resolve("core-site.xml"),
                HadoopFiles.siteXml(Map.of(
                        "fs.defaultFS",
                        "file:///",
                        "hadoop.tmp.dir",
                        dir.resolve("tmp").toString())));
        Map<String, String> yarn = new LinkedHashMap<>();
        yarn.put("yarn.resourcemanager.hostname", "127.0.0.1");
        yarn.put("yarn.resourcemanager.scheduler.address", "127.0.0.1:" + port);
        yarn.put("yarn.resourcemanager.resource-tracker.address", "127.0.0.1:" + (port + 1));
        yarn.put("yarn.resourcemanager.address", "127.0.0.1:" + (port + 2));
        yarn.put("yarn.resourcemanager.admin.address", "127.0.0.1:" + (port + 3));
        yarn.put("yarn.resourcemanager.webapp.address", "127.0.0.1:" + webPort(port));
        yarn.put("yarn.nodemanager.hostname", "127.0.0.1");
        yarn.put("yarn.nodemanager.address", "127.0.0.1:" + (port + 5));
        yarn.put("yarn.nodemanager.localizer.address", "127.0.0.1:" + (port + 6));
        yarn.put("yarn.nodemanager.webapp.address", "127.0.0.1:" + (port + 7));
        yarn.put("yarn.nodemanager.resource.memory-mb", Integer.toString(NODE_MEMORY_MB));
        yarn.put("yarn.nodemanager.resource.cpu-vcores", Integer.toString(NODE_VCORES));
        yarn.put("yarn.scheduler.minimum-allocation-mb", "256");
        // a benchmark's ApplicationMaster that failed must fail the run, not start over (Apex cannot ask for this)
        yarn.put("yarn.resourcemanager.am.max-attempts", "1");
        yarn.put("yarn.scheduler.maximum-allocation-mb", Integer.toString(NODE_MEMORY_MB));
        // the engines size their JVMs themselves; the kernel's accounting of a JVM's virtual memory is not that
        yarn.put("yarn.nodemanager.vmem-check-enabled", "false");
        yarn.put("yarn.nodemanager.pmem-check-enabled", "false");
        yarn.put("yarn.nodemanager.local-dirs", dir.resolve("nm-local").toString());
        yarn.put("yarn.nodemanager.log-dirs", dir.resolve("nm-logs").toString());
        // a full disk of a developer machine must not mark the only node unhealthy
        yarn.put("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "99");
        yarn.put("yarn.nodemanager.env-whitelist", "JAVA_HOME,PATH,LANG,TZ,HADOOP_CONF_DIR");
        // no Hadoop distribution: containers get this configuration and the servers' own jars
        yarn.put(
                "yarn.application.classpath",
                conf + "," + Home.classpathOf(MODULE).replace(File.pathSeparator, ","));
        Files.writeString(conf.resolve(YarnCluster.YARN_SITE), HadoopFiles.siteXml(yarn));
        Files.writeString(
                conf.resolve("log4j.properties"),
                HadoopFiles.consoleLog4j(
                        "log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR",
                        "log4j.logger.org.eclipse.jetty=WARN"));
    }

    private void writeState(Running running) {
        Properties p = new Properties();
        p.setProperty("resourceManager", running.resourceManager().toString());
        if (running.nodeManager() != null) {
            p.setProperty("nodeManager", running.nodeManager().toString());
        }
        p.setProperty("port", Integer.toString(running.port()));
        StringWriter text = new StringWriter();
        try {
            p.store(text, "streambench local YARN");
            Folders.replaceAtomically(dir.resolve(STATE_FILE), text.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
