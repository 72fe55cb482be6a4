package org.streambench.runner.swarm;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.streambench.local.UserError;

/**
 * The stack files of {@code docker-swarm/}, deployed and removed with the docker CLI as stacks named
 * {@code streambench-NAME}; only on a Swarm manager, which is checked before anything is done.
 */
public final class Swarm {

    public static final String STACK_PREFIX = "streambench-";
    /** The attachable overlay network every stack joins, created on the first deploy. */
    public static final String NETWORK = "streambench";

    /**
     * The Docker engine to talk to instead of the docker CLI's default ({@code DOCKER_HOST}): tests
     * point it at a socket of their own, so they never reach a user's swarm.
     */
    public static final String DOCKER_HOST_PROPERTY = "streambench.docker.host";

    /** Longer than docker stack deploy/rm take when they wait for the services. */
    private static final long DOCKER_SECONDS = 600;

    private final Path folder;
    private final PrintWriter out;

    public Swarm(Path folder, PrintWriter out) {
        this.folder = folder;
        this.out = out;
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
        Result info;
        try {
            info = docker(List.of("info", "--format", "{{.Swarm.LocalNodeState}} {{.Swarm.ControlAvailable}}"));
        } catch (IOException e) {
            throw new UserError("the docker CLI is not installed (" + e.getMessage()
                    + "); run bench swarm on a Swarm manager with docker installed");
        }
        if (info.code() != 0) {
            throw new UserError("no Docker engine is reachable (docker info: " + firstLine(info.errors())
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
        if (docker(List.of("network", "inspect", NETWORK)).code() != 0) {
            out.println("creating the overlay network " + NETWORK);
            Result created = docker(List.of("network", "create", "--driver", "overlay", "--attachable", NETWORK));
            if (echoed(created) != 0) {
                return created.code();
            }
        }
        return echoed(docker(List.of("stack", "deploy", "--compose-file", file.toString(), STACK_PREFIX + name)));
    }

    /** docker stack rm of NAME; the CLI's exit code. */
    public int remove(String name) throws IOException, InterruptedException {
        stackFile(name);
        requireManager();
        return echoed(docker(List.of("stack", "rm", STACK_PREFIX + name)));
    }

    private int echoed(Result result) {
        out.print(result.output());
        out.print(result.errors());
        out.flush();
        return result.code();
    }

    private record Result(int code, String output, String errors) {}

    private static Result docker(List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("docker");
        command.addAll(arguments);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        String host = System.getProperty(DOCKER_HOST_PROPERTY);
        if (host != null) {
            builder.environment().put("DOCKER_HOST", host);
            builder.environment().remove("DOCKER_CONTEXT");
        }
        Process process = builder.start();
        CompletableFuture<String> errors = CompletableFuture.supplyAsync(() -> text(process.getErrorStream()));
        String output = text(process.getInputStream());
        if (!process.waitFor(DOCKER_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new UserError(String.join(" ", command) + " did not finish within " + DOCKER_SECONDS + " s");
        }
        return new Result(process.exitValue(), output, errors.join());
    }

    private static String text(InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String firstLine(String text) {
        return text.strip().lines().findFirst().orElse("no output");
    }
}
