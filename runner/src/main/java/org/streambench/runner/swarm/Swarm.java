package org.streambench.runner.swarm;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.streambench.local.UserError;
import org.streambench.runner.monitor.ScrapeTargets;

/**
 * The stack files of {@code docker-swarm/}, deployed and removed with the docker CLI as stacks named
 * {@code streambench-NAME}; only on a Swarm manager, which is checked before anything is done.
 */
public final class Swarm {

    public static final String STACK_PREFIX = "streambench-";
    /** Longer than a restart policy's delay (5 s unless a stack sets one) between a failed task and the next. */
    static final int GIVEN_UP_SECONDS = 30;
    /** The desired states of a task the swarm still means to run. */
    private static final List<String> TASK_TO_RUN = List.of("Running", "Ready", "Accepted");
    /** The attachable overlay network every stack joins, created on the first deploy. */
    public static final String NETWORK = "streambench";

    /**
     * The Docker engine to talk to instead of the docker CLI's default ({@code DOCKER_HOST}): tests
     * point it at a socket of their own, so they never reach a user's swarm.
     */
    public static final String DOCKER_HOST_PROPERTY = "streambench.docker.host";

    /** The folder of the runner's scrape targets that the monitoring stacks mount, unless the user names another. */
    public static final String TARGETS_VARIABLE = "STREAMBENCH_TARGETS";

    /** The service label by which a stack declares an exporter the runner should scrape and read: NAME=URL. */
    public static final String EXPORTER_LABEL = "org.streambench.exporter";

    private final Path folder;
    private final PrintWriter out;
    private final Docker docker;
    private final ScrapeTargets scrapeTargets;

    /**
     * The stacks of {@code folder} on the engine at {@code host} (null: the docker CLI's default);
     * {@code scrapeTargets} is the runner's scrape targets, whose folder a deploy gives the stack
     * files as {@value #TARGETS_VARIABLE} when the environment does not, and where it names the
     * exporters a stack declares ({@value #EXPORTER_LABEL}).
     */
    public Swarm(Path folder, String host, ScrapeTargets scrapeTargets, PrintWriter out) {
        this.folder = folder;
        this.out = out;
        this.docker = new Docker(host);
        this.scrapeTargets = scrapeTargets;
    }

    /**
     * The engine bench swarm talks to: the one a test names ({@link #DOCKER_HOST_PROPERTY}), else the
     * suite's own local swarm while it runs, else the docker CLI's default (a user's Swarm manager).
     */
    public static String host(LocalSwarm local) {
        String property = System.getProperty(DOCKER_HOST_PROPERTY);
        if (property != null) {
            return property;
        }
        return local.running().map(LocalSwarm.Running::host).orElse(null);
    }

    /** The stacks there are: the names of the .yml files in docker-swarm/. */
    public List<String> stacks() throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yml"))
                    .map(n -> n.substring(0, n.length() - ".yml".length()))
                    .sorted()
                    .toList();
        }
    }

    /** The stack file of NAME; a clear error naming the stacks there are if there is none. */
    public Path stackFile(String name) throws IOException {
        List<String> stacks = stacks();
        if (!stacks.contains(name)) {
            throw new UserError(
                    "no stack '" + name + "' in " + folder + "; the stacks are: " + String.join(", ", stacks));
        }
        return folder.resolve(name + ".yml");
    }

    /** Throws a {@link UserError} unless the docker CLI is installed and talks to a Swarm manager. */
    public void requireManager() throws IOException, InterruptedException {
        Docker.Result info;
        try {
            info = docker(List.of("info", "--format", "{{.Swarm.LocalNodeState}} {{.Swarm.ControlAvailable}}"));
        } catch (IOException e) {
            throw new UserError("the docker CLI is not installed (" + e.getMessage()
                    + "); run bench swarm on a Swarm manager with docker installed");
        }
        if (info.code() != 0) {
            throw new UserError("no Docker engine is reachable (docker info: " + info.firstErrorLine()
                    + "); run bench swarm on a manager of the Swarm");
        }
        if (!info.output().strip().equals("active true")) {
            throw new UserError("this Docker engine is not a Swarm manager (swarm state and manager: '"
                    + info.output().strip() + "'); run docker swarm init, or run bench swarm on a manager");
        }
    }

    /** docker stack deploy of NAME (after creating the overlay network if it is missing); the CLI's exit code. */
    public int deploy(String name) throws IOException, InterruptedException {
        Path file = stackFile(name);
        requireManager();
        for (String image : localImages(file)) {
            if (docker(List.of("image", "inspect", image)).code() != 0) {
                String folder =
                        image.substring(SwarmImages.IMAGE_PREFIX.length()).replaceFirst(":.*$", "");
                throw new UserError("stack " + name + " needs the image " + image
                        + ", which this engine does not have (no registry serves it); build it first: ./bench swarm images "
                        + folder);
            }
        }
        if (docker(List.of("network", "inspect", NETWORK)).code() != 0) {
            out.println("creating the overlay network " + NETWORK);
            Docker.Result created =
                    docker(List.of("network", "create", "--driver", "overlay", "--attachable", NETWORK));
            if (echoed(created) != 0) {
                return created.code();
            }
        }
        Map<String, String> variables = new HashMap<>();
        if (System.getenv(TARGETS_VARIABLE) == null) {
            // a bind mount's source must exist before its task starts
            Files.createDirectories(scrapeTargets.dir());
            variables.put(TARGETS_VARIABLE, scrapeTargets.dir().toAbsolutePath().toString());
        }
        int code = echoed(docker.run(
                List.of("stack", "deploy", "--compose-file", file.toString(), STACK_PREFIX + name), null, variables));
        if (code == 0) {
            for (ScrapeTargets.Exporter exporter : exportersOf(file)) {
                scrapeTargets.addExporter(exporter);
                out.println("scraping exporter " + exporter.name() + " at " + exporter.url()
                        + " (runs read it into resources.exporters)");
            }
        }
        return code;
    }

    /** The exporters a stack file's services declare with the label {@value #EXPORTER_LABEL}: NAME=URL. */
    static List<ScrapeTargets.Exporter> exportersOf(Path stackFile) throws IOException {
        return Files.readAllLines(stackFile).stream()
                .map(String::strip)
                .filter(line -> line.startsWith(EXPORTER_LABEL + ":"))
                .map(line -> ScrapeTargets.parseExporter(
                        line.substring(EXPORTER_LABEL.length() + 1).strip()))
                .toList();
    }

    /** Stops naming the exporters of every stack in the folder (the swarm is going down). */
    public void forgetExporters() throws IOException {
        for (String stack : stacks()) {
            forgetExportersOf(stackFile(stack));
        }
    }

    private void forgetExportersOf(Path stackFile) throws IOException {
        for (ScrapeTargets.Exporter exporter : exportersOf(stackFile)) {
            if (scrapeTargets.removeExporter(exporter.name())) {
                out.println("no longer scraping exporter " + exporter.name());
            }
        }
    }

    /**
     * Waits until every service of stack NAME runs all its replicas and every one of its containers
     * reports healthy; returns the seconds it took. A {@link UserError} after {@code timeoutSeconds}
     * names the services that are not there yet; one as soon as the swarm has given up a service (its
     * restart policy's attempts used up: no task is to run any more) names it and its last task's error.
     */
    public double awaitHealthy(String name, long timeoutSeconds) throws IOException, InterruptedException {
        String stack = STACK_PREFIX + name;
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        String waitingFor = "";
        Map<String, Long> givenUpSince = new HashMap<>();
        while (System.nanoTime() < deadline) {
            List<String> services = docker(List.of(
                            "service",
                            "ls",
                            "--filter",
                            "label=com.docker.stack.namespace=" + stack,
                            "--format",
                            "{{.Name}} {{.Replicas}}"))
                    .output()
                    .strip()
                    .lines()
                    .toList();
            List<String> containers = docker(List.of(
                            "ps",
                            "--filter",
                            "label=com.docker.stack.namespace=" + stack,
                            "--format",
                            "{{.Names}} {{.Status}}"))
                    .output()
                    .strip()
                    .lines()
                    .toList();
            List<String> notReady = services.stream()
                    .filter(line -> !fullyReplicated(line.substring(line.indexOf(' ') + 1)))
                    .map(line -> line.substring(0, line.indexOf(' ')))
                    .toList();
            List<String> unhealthy = containers.stream()
                    .filter(line -> !line.contains("(healthy)"))
                    .map(line -> line.substring(0, line.indexOf(' ')))
                    .toList();
            if (!services.isEmpty() && notReady.isEmpty() && unhealthy.isEmpty()) {
                return (System.nanoTime() - start) / 1e9;
            }
            for (String service : notReady) {
                if (!givenUp(service)) {
                    givenUpSince.remove(service);
                } else if (System.nanoTime() - givenUpSince.computeIfAbsent(service, s -> System.nanoTime())
                        > TimeUnit.SECONDS.toNanos(GIVEN_UP_SECONDS)) {
                    throw new UserError("stack " + stack + ": the swarm gave up " + service + " after its restarts ("
                            + lastTaskError(service) + "); see docker service logs " + service);
                }
            }
            String now = "waiting for " + String.join(", ", notReady.isEmpty() ? unhealthy : notReady);
            if (!now.equals(waitingFor)) {
                out.println(now);
                out.flush();
                waitingFor = now;
            }
            Thread.sleep(2_000);
        }
        throw new UserError("stack " + stack + " was not healthy within " + timeoutSeconds + " s (" + waitingFor
                + "); see docker service ps " + stack + "_SERVICE --no-trunc");
    }

    /**
     * Whether {@code service} has had tasks and none is to run now: between a failed task and its
     * restart (the policy's delay) too, so the caller waits {@value #GIVEN_UP_SECONDS} s before it calls it given up.
     */
    private boolean givenUp(String service) throws IOException, InterruptedException {
        List<String> desired = docker(List.of("service", "ps", "--format", "{{.DesiredState}}", service))
                .output()
                .strip()
                .lines()
                .toList();
        return !desired.isEmpty() && desired.stream().noneMatch(TASK_TO_RUN::contains);
    }

    private String lastTaskError(String service) throws IOException, InterruptedException {
        String error = docker(List.of("service", "ps", "--no-trunc", "--format", "{{.Error}}", service))
                .output()
                .strip()
                .lines()
                .filter(line -> !line.isBlank())
                .findFirst()
                .orElse("");
        return error.isEmpty() ? "its tasks exited" : error;
    }

    /** The images {@code bench swarm images} builds (local/streambench-NAME) that a stack file names. */
    static List<String> localImages(Path stackFile) throws IOException {
        return Files.readAllLines(stackFile).stream()
                .map(String::strip)
                .filter(line -> line.startsWith("image:"))
                .map(line -> line.substring("image:".length()).strip())
                .filter(image -> image.startsWith(SwarmImages.IMAGE_PREFIX))
                .distinct()
                .toList();
    }

    private static boolean fullyReplicated(String replicas) {
        String[] parts = replicas.split("/");
        return parts.length == 2 && !parts[0].equals("0") && parts[0].equals(parts[1].split(" ")[0]);
    }

    /** docker stack rm of NAME; the CLI's exit code. */
    public int remove(String name) throws IOException, InterruptedException {
        Path file = stackFile(name);
        requireManager();
        int code = echoed(docker(List.of("stack", "rm", STACK_PREFIX + name)));
        forgetExportersOf(file);
        return code;
    }

    private int echoed(Docker.Result result) {
        out.print(result.output());
        out.print(result.errors());
        out.flush();
        return result.code();
    }

    private Docker.Result docker(List<String> arguments) throws IOException, InterruptedException {
        return docker.run(arguments);
    }
}
