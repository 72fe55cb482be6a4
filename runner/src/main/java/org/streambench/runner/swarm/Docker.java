package org.streambench.runner.swarm;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.streambench.local.UserError;

/** The docker CLI, pointed at one engine ({@code DOCKER_HOST}); null: the CLI's own default. */
final class Docker {

    /** Longer than docker stack deploy/rm and an image build take. */
    private static final long DOCKER_SECONDS = 1800;

    private final String host;

    Docker(String host) {
        this.host = host;
    }

    record Result(int code, String output, String errors) {
        String firstErrorLine() {
            String text = errors.isBlank() ? output : errors;
            return text.strip().lines().findFirst().orElse("no output");
        }
    }

    Result run(String... arguments) throws IOException, InterruptedException {
        return run(List.of(arguments));
    }

    Result run(List<String> arguments) throws IOException, InterruptedException {
        return run(arguments, null);
    }

    Result run(List<String> arguments, Path input) throws IOException, InterruptedException {
        return run(arguments, input, Map.of());
    }

    /** Runs docker with {@code arguments}, its input from {@code input} (null: none), {@code environment} added to its own. */
    Result run(List<String> arguments, Path input, Map<String, String> environment)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add("docker");
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(input == null ? new File("/dev/null") : input.toFile()));
        builder.environment().putAll(environment);
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

    /** Whether {@code program} is an executable on the PATH. */
    static boolean installed(String program) {
        for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
                return true;
            }
        }
        return false;
    }

    private static String text(InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
