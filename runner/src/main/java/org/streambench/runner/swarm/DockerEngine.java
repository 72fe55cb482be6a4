package org.streambench.runner.swarm;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.streambench.local.ProcessStopping;
import org.streambench.local.UserError;
import org.streambench.servers.ServerState.ProcessRef;

/**
 * A dockerd with everything of its own in one folder: its data (images, volumes, swarm state), its
 * runtime folder, its socket and its log. Stopping it also removes what a stopped dockerd leaves:
 * the containerd it started, its sandbox's network namespace mounted under the runtime folder and
 * the network bridges it made.
 */
public final class DockerEngine {

    /** The network bridges dockerd makes: its default bridge network and the swarm's gateway to the host. */
    static final List<String> BRIDGES = List.of("docker0", "docker_gwbridge");

    private static final long START_TIMEOUT_SECONDS = 60;
    private static final long STOP_TIMEOUT_SECONDS = 30;

    private final Path dir;
    private final PrintWriter out;

    public DockerEngine(Path dir, PrintWriter out) {
        this.dir = dir;
        this.out = out;
    }

    /** The engine's socket, as DOCKER_HOST. */
    public String host() {
        return "unix://" + dir.resolve("docker.sock");
    }

    /**
     * Starts dockerd and returns it once it answers; {@code started} gets it as soon as it runs, so
     * that a start interrupted while waiting can still be found and stopped.
     */
    public ProcessRef start(Consumer<ProcessRef> started) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Process dockerd = new ProcessBuilder(
                        "setsid",
                        "dockerd",
                        "--host",
                        host(),
                        "--data-root",
                        dir.resolve("data").toString(),
                        "--exec-root",
                        dir.resolve("exec").toString(),
                        "--pidfile",
                        dir.resolve("dockerd.pid").toString(),
                        // published ports forwarded by the kernel, not by a docker-proxy process per port
                        // (PostgreSQL's read round trip 0.30 ms instead of 0.41 ms here)
                        "--userland-proxy=false")
                .redirectErrorStream(true)
                .redirectOutput(
                        ProcessBuilder.Redirect.to(dir.resolve("dockerd.log").toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        ProcessRef ref = ProcessRef.of(dockerd.toHandle());
        started.accept(ref);
        Docker docker = new Docker(host());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (docker.run("info", "--format", "{{.ServerVersion}}").code() != 0) {
            if (!dockerd.isAlive()) {
                throw new UserError(
                        "dockerd did not start (exit " + dockerd.exitValue() + "); see " + dir.resolve("dockerd.log"));
            }
            if (System.nanoTime() > deadline) {
                throw new UserError("dockerd did not answer within " + START_TIMEOUT_SECONDS + " s; see "
                        + dir.resolve("dockerd.log"));
            }
            Thread.sleep(250);
        }
        return ref;
    }

    /**
     * Stops {@code dockerd} (if it still runs) and the containerd it started, then unmounts and
     * removes what it left: also after an engine that was killed.
     */
    public void stop(ProcessRef dockerd) throws IOException, InterruptedException {
        dockerd.handle().ifPresent(engine -> {
            // containerd and the containers' shims are dockerd's children: stop whatever it leaves
            List<ProcessHandle> children = engine.descendants().toList();
            ProcessStopping.terminate(out, "dockerd", List.of(engine), STOP_TIMEOUT_SECONDS);
            List<ProcessHandle> alive =
                    children.stream().filter(ProcessHandle::isAlive).toList();
            ProcessStopping.terminate(out, "containerd", alive, STOP_TIMEOUT_SECONDS);
        });
        unmountNetworkNamespaces();
        removeBridges();
    }

    /**
     * A stopped dockerd leaves the network namespace of its swarm's sandbox mounted (nsfs) under
     * exec/netns: the namespace would live on, and the folder could not be deleted.
     */
    void unmountNetworkNamespaces() throws IOException, InterruptedException {
        Path netns = dir.resolve("exec").resolve("netns");
        if (!Files.isDirectory(netns)) {
            return;
        }
        List<String> mountPoints = Files.readAllLines(Path.of("/proc/self/mounts"), StandardCharsets.UTF_8).stream()
                .map(line -> line.split(" "))
                .filter(fields -> fields.length > 1)
                .map(fields -> fields[1].replace("\\040", " "))
                .toList();
        try (Stream<Path> files = Files.list(netns)) {
            for (Path file : files.toList()) {
                // one umount per mount: a path an earlier engine left mounted is mounted over again
                for (int mounts = Collections.frequency(
                                mountPoints, file.toAbsolutePath().toString());
                        mounts > 0;
                        mounts--) {
                    Process umount = new ProcessBuilder(
                                    "umount", file.toAbsolutePath().toString())
                            .redirectErrorStream(true)
                            .start();
                    String said = new String(umount.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    if (umount.waitFor() != 0) {
                        out.println("could not unmount dockerd's network namespace " + file + ": " + said.strip());
                        break;
                    }
                }
            }
        }
    }

    /**
     * dockerd leaves its bridges (the default one and the swarm's gateway bridge) when it stops; with
     * no other engine running they are this one's. Its iptables chains stay, as after any dockerd,
     * without a rule for a container.
     */
    private void removeBridges() throws IOException, InterruptedException {
        if (ProcessHandle.allProcesses().anyMatch(DockerEngine::isDockerd)) {
            return; // another engine's now: it made bridges of the same names
        }
        for (String bridge : BRIDGES) {
            Process show = new ProcessBuilder("ip", "link", "show", bridge)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (show.waitFor() == 0) {
                Process delete = new ProcessBuilder("ip", "link", "delete", bridge)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                if (delete.waitFor() != 0) {
                    out.println("could not remove the network bridge " + bridge + " (ip link delete " + bridge + ")");
                }
            }
        }
    }

    /** Whether {@code process} is a Docker engine. */
    static boolean isDockerd(ProcessHandle process) {
        return process.info().command().map(c -> c.endsWith("/dockerd")).orElse(false);
    }
}
