package org.streambench.runner.swarm;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.streambench.local.Folders;
import org.streambench.local.ProcessStopping;
import org.streambench.local.UserError;
import org.streambench.servers.ServerState.ProcessRef;

/**
 * A single-node Docker Swarm of the suite's own on this machine: a {@code dockerd} with its own data,
 * its own runtime folder and its own socket under {@code work/swarm/}, made a swarm manager on
 * 127.0.0.1. It never touches another Docker engine: {@code up} refuses when a dockerd of someone
 * else runs (two engines would fight over the same bridges and firewall rules), and every docker
 * command of the suite goes to this engine's socket while it runs. {@code down} removes the
 * suite's stacks, waits until their containers are gone, removes their volumes, leaves the swarm,
 * stops the engine (and the containerd it started) and removes the bridges it made, leaving the
 * images for the next {@code up}.
 */
public final class LocalSwarm {

    static final String STATE_FILE = "swarm.properties";
    /** The Docker secrets the stacks read; up creates them with generated passwords, kept in work/swarm/ for bench. */
    public static final String DB_PASSWORD_SECRET = "streambench_db_password";

    static final String DB_ROOT_PASSWORD_SECRET = "streambench_db_root_password";
    /** Swarm's own cluster-management port, bound on 127.0.0.1. */
    static final int MANAGEMENT_PORT = 2377;

    /** The network bridges dockerd makes: its default bridge network and the swarm's gateway to the host. */
    static final List<String> BRIDGES = List.of("docker0", "docker_gwbridge");

    private static final long START_TIMEOUT_SECONDS = 60;
    private static final long STOP_TIMEOUT_SECONDS = 30;
    private static final long CONTAINERS_GONE_SECONDS = 120;

    private final Path dir;
    private final PrintWriter out;

    public LocalSwarm(Path work, PrintWriter out) {
        this.dir = work.resolve("swarm");
        this.out = out;
    }

    /** The engine the suite started: its dockerd and its socket. */
    public record Running(ProcessRef dockerd, String host) {}

    public Path dir() {
        return dir;
    }

    /** The socket the suite's engine listens on, as DOCKER_HOST. */
    public String host() {
        return "unix://" + dir.resolve("docker.sock");
    }

    /** The file holding the password of the stacks' database user (--db-password-file). */
    public Path dbPasswordFile() {
        return dir.resolve(DB_PASSWORD_SECRET);
    }

    private static String generatedPassword() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** The suite's engine, if its dockerd runs. */
    public Optional<Running> running() {
        Path state = dir.resolve(STATE_FILE);
        if (!Files.isRegularFile(state)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(state, StandardCharsets.UTF_8)) {
            p.load(in);
            Running running = new Running(ProcessRef.parse(p.getProperty("dockerd")), p.getProperty("host"));
            return running.dockerd().handle().isPresent() ? Optional.of(running) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Starts the engine and makes it a single-node swarm manager, or says that it runs. Refuses,
     * before anything starts, when another dockerd runs or the management port is taken.
     */
    public Running up() throws IOException, InterruptedException {
        Optional<Running> already = running();
        if (already.isPresent()) {
            out.println("the suite's swarm already runs (dockerd pid "
                    + already.get().dockerd().pid() + ", " + already.get().host() + ")");
            return already.get();
        }
        requireStartable();
        Files.createDirectories(dir);
        long started = System.nanoTime();
        out.println("starting dockerd (data, images and logs in " + dir + ") ...");
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
        Running running = new Running(ProcessRef.of(dockerd.toHandle()), host());
        writeState(running); // published at once, so that an interrupted start can still be found and stopped
        try {
            Docker docker = new Docker(host());
            long deadline = started + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
            while (docker.run("info", "--format", "{{.ServerVersion}}").code() != 0) {
                if (!dockerd.isAlive()) {
                    throw new UserError("dockerd did not start (exit " + dockerd.exitValue() + "); see "
                            + dir.resolve("dockerd.log"));
                }
                if (System.nanoTime() > deadline) {
                    throw new UserError("dockerd did not answer within " + START_TIMEOUT_SECONDS + " s; see "
                            + dir.resolve("dockerd.log"));
                }
                Thread.sleep(250);
            }
            Docker.Result init = docker.run(
                    "swarm", "init", "--advertise-addr", "127.0.0.1", "--listen-addr", "127.0.0.1:" + MANAGEMENT_PORT);
            if (init.code() != 0) {
                throw new UserError("docker swarm init failed: " + init.firstErrorLine());
            }
            Docker.Result network =
                    docker.run("network", "create", "--driver", "overlay", "--attachable", Swarm.NETWORK);
            if (network.code() != 0) {
                throw new UserError(
                        "creating the overlay network " + Swarm.NETWORK + " failed: " + network.firstErrorLine());
            }
            for (String secret : List.of(DB_PASSWORD_SECRET, DB_ROOT_PASSWORD_SECRET)) {
                Path file = dir.resolve(secret);
                if (!Files.isRegularFile(file)) { // kept across up and down: a volume a killed down left still matches
                    Files.createFile(
                            file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                    Files.writeString(file, generatedPassword(), StandardCharsets.UTF_8);
                }
                Docker.Result created = docker.run(List.of("secret", "create", secret, "-"), file);
                if (created.code() != 0) {
                    throw new UserError("docker secret create " + secret + " failed: " + created.firstErrorLine());
                }
            }
            String version = docker.run("info", "--format", "{{.ServerVersion}}")
                    .output()
                    .strip();
            out.printf(
                    "swarm of one node ready after %.1f s: Docker %s, dockerd pid %d, DOCKER_HOST=%s%n",
                    (System.nanoTime() - started) / 1e9, version, dockerd.pid(), host());
            return running;
        } catch (RuntimeException | Error | InterruptedException | IOException e) {
            stopEngine(running);
            throw e;
        }
    }

    /**
     * Removes the suite's stacks, waits until their containers are gone, leaves the swarm and stops
     * the engine; false if it did not run.
     */
    public boolean down() throws IOException, InterruptedException {
        Optional<Running> running = running();
        if (running.isEmpty()) {
            Files.deleteIfExists(dir.resolve(STATE_FILE));
            unmountNetworkNamespaces(); // an engine that was killed leaves them too
            return false;
        }
        Docker docker = new Docker(running.get().host());
        for (String stack : docker.run("stack", "ls", "--format", "{{.Name}}")
                .output()
                .strip()
                .lines()
                .toList()) {
            if (stack.startsWith(Swarm.STACK_PREFIX)) {
                out.println("removing stack " + stack);
                docker.run("stack", "rm", stack);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CONTAINERS_GONE_SECONDS);
        // stopped containers too: a task's container still holds its volume until the swarm removes it
        while (!docker.run("ps", "--all", "--quiet").output().isBlank() && System.nanoTime() < deadline) {
            Thread.sleep(500);
        }
        List<String> left =
                docker.run("ps", "--all", "--quiet").output().strip().lines().toList();
        if (!left.isEmpty() && !left.get(0).isBlank()) {
            out.println("removing " + left.size() + " containers the stacks left");
            docker.run(concat(List.of("rm", "--force"), left));
        }
        removeStackVolumes(docker);
        docker.run("swarm", "leave", "--force");
        stopEngine(running.get());
        unmountNetworkNamespaces();
        removeBridges();
        return true;
    }

    /**
     * A stopped dockerd leaves the network namespace of its swarm's sandbox mounted (nsfs) under
     * exec/netns: the namespace would live on, and the folder could not be deleted.
     */
    private void unmountNetworkNamespaces() throws IOException, InterruptedException {
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
     * The stacks' volumes hold benchmark data only, and a database's data volume keeps the password
     * it was initialised with, which the next up replaces: down removes them.
     */
    private void removeStackVolumes(Docker docker) throws IOException, InterruptedException {
        List<String> volumes = docker.run("volume", "ls", "--quiet", "--filter", "label=com.docker.stack.namespace")
                .output()
                .strip()
                .lines()
                .filter(name -> name.startsWith(Swarm.STACK_PREFIX))
                .toList();
        if (!volumes.isEmpty()) {
            Docker.Result removed = docker.run(concat(List.of("volume", "rm", "--force"), volumes));
            if (removed.code() != 0) {
                out.println("could not remove the stacks' volumes: " + removed.firstErrorLine());
            }
        }
    }

    /**
     * dockerd leaves its bridges (the default one and the swarm's gateway bridge) when it stops; no
     * other engine runs (up made sure), so they are the suite's. Its iptables chains stay, as after
     * any dockerd, without a rule for a container.
     */
    private void removeBridges() throws IOException, InterruptedException {
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

    private void stopEngine(Running running) throws IOException {
        running.dockerd().handle().ifPresent(dockerd -> {
            // containerd and the containers' shims are dockerd's children: stop whatever it leaves
            List<ProcessHandle> children = dockerd.descendants().toList();
            ProcessStopping.terminate(out, "dockerd", List.of(dockerd), STOP_TIMEOUT_SECONDS);
            List<ProcessHandle> alive =
                    children.stream().filter(ProcessHandle::isAlive).toList();
            ProcessStopping.terminate(out, "containerd", alive, STOP_TIMEOUT_SECONDS);
        });
        Files.deleteIfExists(dir.resolve(STATE_FILE));
    }

    /** What up would trip over, checked before it starts anything. */
    private void requireStartable() {
        if (!Docker.installed("dockerd")) {
            throw new UserError("dockerd is not installed; install it (apt-get install docker.io, which ./bench swarm"
                    + " up does by itself when it runs as root) and retry");
        }
        ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.endsWith("/dockerd")).orElse(false))
                .findFirst()
                .ifPresent(other -> {
                    throw new UserError("another dockerd runs (pid " + other.pid() + "); the suite starts an engine of"
                            + " its own and never shares one: stop it, or use it as it is with bench swarm deploy");
                });
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), MANAGEMENT_PORT));
        } catch (IOException e) {
            throw new UserError("port " + MANAGEMENT_PORT + " (Swarm's cluster management) is in use on 127.0.0.1");
        }
    }

    private void writeState(Running running) {
        Properties p = new Properties();
        p.setProperty("dockerd", running.dockerd().toString());
        p.setProperty("host", running.host());
        StringWriter text = new StringWriter();
        try {
            p.store(text, "streambench local swarm");
            Folders.replaceAtomically(dir.resolve(STATE_FILE), text.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
