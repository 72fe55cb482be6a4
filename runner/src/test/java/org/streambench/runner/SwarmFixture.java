package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.TestServers;

/**
 * A single-node swarm of the test's own (bench swarm up under the test's work folder), its stacks
 * and the checks the swarm tests share: bench swarm deploy --single-node until healthy, a verified
 * bounded run against a stack, and bench swarm down leaving no process, bridge or volume behind.
 * A test class makes one per instance (the stacks it deployed go after each test) and calls
 * {@link #up} and {@link #downLeavesNothing} around all its tests.
 */
final class SwarmFixture {

    static final Path SWARM_DIR = TestServers.WORK.resolve("swarm");
    static final String PRIMARY_URL = "jdbc:postgresql://127.0.0.1:25432/streambench";
    /** The records of {@link #assertVerifiedRun}: one update each. */
    static final int VERIFIED_RUN_RECORDS = 3000;

    /** The stacks the running test deployed, removed after it. */
    private final List<String> deployed = new ArrayList<>();

    /** The suite's swarm up with {@code images} built; skips the test class when another Docker engine runs here. */
    static void up(String... images) {
        assumeNoEngineRunsBut(SWARM_DIR);
        CliResult up = CliResult.bench("swarm", "up");
        assertEquals(0, up.code(), up.toString());
        List<String> build = new ArrayList<>(List.of("swarm", "images"));
        build.addAll(List.of(images));
        CliResult built = CliResult.bench(build.toArray(String[]::new));
        assertEquals(0, built.code(), built.toString());
        // what each image took, in the test run's log: the swarm suites' share of CI's time
        built.out()
                .lines()
                .filter(line -> line.startsWith("made ") || line.startsWith("built ") || line.startsWith("images "))
                .forEach(line -> System.out.println("swarm images: " + line));
    }

    /**
     * Skips the test class when a Docker engine runs here other than one whose command line names
     * {@code ours} (null: any engine): a test never shares a user's engine.
     */
    static void assumeNoEngineRunsBut(Path ours) {
        boolean othersEngine = ProcessHandle.allProcesses()
                .anyMatch(
                        p -> p.info().command().map(c -> c.endsWith("/dockerd")).orElse(false)
                                && (ours == null
                                        || p.info()
                                                .arguments()
                                                .map(a -> !String.join(" ", a).contains(ours.toString()))
                                                .orElse(true)));
        Assumptions.assumeFalse(othersEngine, "another Docker engine runs here; the suite never shares one");
    }

    static void downLeavesNothing() throws Exception {
        CliResult down = CliResult.bench("swarm", "down");
        assertEquals(0, down.code(), down.toString());
        assertNothingLeftOf(SWARM_DIR);
    }

    /** No process, stack volume or mount of the engine whose folder is {@code swarmDir}, and no bridge of any engine. */
    static void assertNothingLeftOf(Path swarmDir) throws Exception {
        List<String> left = ProcessHandle.allProcesses()
                .filter(p -> p.info()
                        .commandLine()
                        .map(c -> c.contains(swarmDir.toString()))
                        .orElse(false))
                .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
                .toList();
        assertEquals(List.of(), left, "no process of the suite's engine is left");
        try (Stream<Path> volumes = Files.list(swarmDir.resolve("data").resolve("volumes"))) {
            assertEquals(
                    List.of(),
                    volumes.map(v -> v.getFileName().toString())
                            .filter(v -> v.startsWith("streambench-"))
                            .toList(),
                    "the stacks' volumes are gone");
        }
        assertEquals(
                List.of(),
                Files.readAllLines(Path.of("/proc/self/mounts")).stream()
                        .filter(line -> line.contains(swarmDir.toString()))
                        .toList(),
                "nothing of the engine is left mounted (dockerd leaves its swarm's network namespace)");
        for (String bridge : List.of("docker0", "docker_gwbridge")) {
            Process show = new ProcessBuilder("ip", "link", "show", bridge)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            assertEquals(1, show.waitFor(), "the network bridge " + bridge + " is gone");
        }
    }

    void deployHealthy(String stack) {
        deployed.add(stack);
        CliResult deploy = CliResult.bench("swarm", "deploy", stack, "--single-node");
        assertEquals(0, deploy.code(), deploy.toString());
        assertTrue(deploy.out().contains("stack streambench-" + stack + " healthy after"), deploy.out());
        assertStatusShows(stack);
    }

    /** bench swarm status lists {@code stack} with every one of its services at all its replicas. */
    static void assertStatusShows(String stack) {
        CliResult status = CliResult.bench("swarm", "status");
        assertEquals(0, status.code(), status.toString());
        String prefix = "stack streambench-" + stack + ": ";
        String line = status.out()
                .lines()
                .filter(l -> l.startsWith(prefix))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line for the stack: " + status));
        for (String service : line.substring(prefix.length()).split(", ")) {
            String[] replicas = service.substring(service.indexOf(' ') + 1).split("/");
            assertEquals(replicas[0], replicas[1], service + " at all its replicas: " + status);
        }
    }

    /** Removes what the test deployed: four clusters at once would share two cores. */
    void removeDeployed() {
        List<String> stacks = List.copyOf(deployed);
        deployed.clear();
        for (String stack : stacks) {
            CliResult rm = CliResult.bench("swarm", "rm", stack);
            assertEquals(0, rm.code(), rm.toString());
        }
    }

    /** A bounded Flink run of updates against the stack at {@code url}, as the suite's user, verified: 0 mismatches. */
    static CliResult assertVerifiedRun(Path tmp, String database, String url, String... settings) throws IOException {
        return assertVerifiedRunAs("streambench", tmp, database, url, settings);
    }

    /** As {@code user} with the stack's password; a null user: no user (HBase, Hazelcast: the settings say the rest). */
    static CliResult assertVerifiedRunAs(String user, Path tmp, String database, String url, String... settings)
            throws IOException {
        Path out = tmp.resolve("run");
        List<String> args = new ArrayList<>(List.of("run", "--engine", "flink", "--db", database, "--db-url", url));
        if (user != null) {
            args.addAll(List.of(
                    "--db-user",
                    user,
                    "--db-password-file",
                    SWARM_DIR.resolve("streambench_db_password").toString()));
        }
        args.addAll(List.of(settings));
        args.addAll(List.of(
                "--pattern",
                "update",
                "--blob",
                "1000",
                "--keys",
                "500",
                "--records",
                Integer.toString(VERIFIED_RUN_RECORDS),
                "--duration",
                "180s", // the bound: Cassandra x3 at QUORUM took 20-74 records/s on two busy cores
                "--warmup",
                "1s",
                "--metrics-port",
                "0",
                "--out",
                out.toString()));
        CliResult run = CliResult.bench(args.toArray(String[]::new));
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> result = ResultFiles.read(out);
        @SuppressWarnings("unchecked")
        Map<String, Object> verification = (Map<String, Object>) result.get("verification");
        assertEquals(0, verification.get("mismatches"), verification.toString());
        return run;
    }

    static String host() {
        return "unix://" + SWARM_DIR.resolve("docker.sock");
    }

    static String container(String stack, String service) throws IOException, InterruptedException {
        return docker("ps", "--quiet", "--filter", "name=streambench-" + stack + "_" + service)
                .strip();
    }

    /** A query inside a PostgreSQL task's container, through the suite's engine. */
    static String psql(String service, String query) throws IOException, InterruptedException {
        return docker(
                        "exec",
                        container("postgresql", service),
                        "psql",
                        "--username=streambench",
                        "--dbname=streambench",
                        "--tuples-only",
                        "--no-align",
                        "--command=" + query)
                .strip();
    }

    /** A docker command against the suite's engine; fails the test unless it exits 0 within 60 s. */
    static String docker(String... arguments) throws IOException, InterruptedException {
        return dockerAt(host(), arguments);
    }

    /** A docker command against the engine at {@code host}; fails the test unless it exits 0 within 60 s. */
    static String dockerAt(String host, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("DOCKER_HOST", host);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "docker " + String.join(" ", arguments));
        assertEquals(0, process.exitValue(), "docker " + String.join(" ", arguments) + ": " + output);
        return output;
    }
}
