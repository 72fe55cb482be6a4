package org.streambench.runner.swarm;

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
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.streambench.local.Folders;
import org.streambench.local.UserError;
import org.streambench.servers.ServerState.ProcessRef;

/**
 * A single-node Docker Swarm for the suite on this machine. By default an engine of the suite's own:
 * a {@code dockerd} with its own data, runtime folder and socket under {@code work/swarm/}, made a
 * swarm manager on 127.0.0.1; {@code up} refuses when a dockerd of someone else runs (two engines
 * would fight over the same bridges and firewall rules), and {@code down} removes the suite's stacks,
 * waits until their containers are gone, removes their volumes, leaves the swarm and stops the engine,
 * leaving the images for the next {@code up}. Told to ({@link #useExisting}), it uses an engine that
 * runs already and records what it made there (the swarm, if the engine was in none; the overlay
 * network; the stacks' secrets), which is all that {@code down} removes besides the suite's stacks
 * and their volumes: it never stops that engine. Every docker command of the suite goes to the
 * engine in use while the swarm is up.
 */
public final class LocalSwarm {

    static final String STATE_FILE = "swarm.properties";
    /** The Docker secrets the stacks read; up creates them with generated passwords, kept in work/swarm/ for bench. */
    public static final String DB_PASSWORD_SECRET = "streambench_db_password";

    static final String DB_ROOT_PASSWORD_SECRET = "streambench_db_root_password";
    static final List<String> SECRETS = List.of(DB_PASSWORD_SECRET, DB_ROOT_PASSWORD_SECRET);
    /** Swarm's own cluster-management port, bound on 127.0.0.1. */
    static final int MANAGEMENT_PORT = 2377;
    /** The engine the docker CLI talks to when DOCKER_HOST is not set. */
    public static final String DEFAULT_DOCKER_HOST = "unix:///var/run/docker.sock";

    private static final long CONTAINERS_GONE_SECONDS = 120;
    private static final String STACK_LABEL = "com.docker.stack.namespace";

    private final Path dir;
    private final PrintWriter out;

    public LocalSwarm(Path work, PrintWriter out) {
        this.dir = work.resolve("swarm");
        this.out = out;
    }

    /** What up made on an engine the suite did not start, and so what down removes there. */
    public enum Made {
        SWARM,
        NETWORK,
        SECRETS
    }

    /**
     * The engine in use: the suite's own ({@code dockerd} is the process it started) or one that ran
     * already ({@code dockerd} empty), at {@code host}; {@code made}: what up made on the latter.
     */
    public record Running(Optional<ProcessRef> dockerd, String host, Set<Made> made) {
        public Running {
            made = Set.copyOf(made);
        }

        public boolean ownEngine() {
            return dockerd.isPresent();
        }
    }

    public Path dir() {
        return dir;
    }

    /** The socket the suite's own engine listens on, as DOCKER_HOST. */
    public String host() {
        return engine().host();
    }

    private DockerEngine engine() {
        return new DockerEngine(dir, out);
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

    /** The engine in use: the suite's own while its dockerd runs, or the one up --use-existing recorded. */
    public Optional<Running> running() {
        Path state = dir.resolve(STATE_FILE);
        if (!Files.isRegularFile(state)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(state, StandardCharsets.UTF_8)) {
            p.load(in);
            String host = p.getProperty("host");
            if (p.getProperty("dockerd") == null) {
                Set<Made> made = EnumSet.noneOf(Made.class);
                for (String name : p.getProperty("made", "").split(",")) {
                    if (!name.isBlank()) {
                        made.add(Made.valueOf(name));
                    }
                }
                return Optional.of(new Running(Optional.empty(), host, made));
            }
            Running running = new Running(Optional.of(ProcessRef.parse(p.getProperty("dockerd"))), host, Set.of());
            return running.dockerd().orElseThrow().handle().isPresent() ? Optional.of(running) : Optional.empty();
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
            sayInUse(already.get());
            return already.get();
        }
        requireStartable();
        Files.createDirectories(dir);
        long started = System.nanoTime();
        out.println("starting dockerd (data, images and logs in " + dir + ") ...");
        DockerEngine engine = engine();
        ProcessRef[] dockerd = new ProcessRef[1];
        try {
            // published at once, so that an interrupted start can still be found and stopped
            engine.start(ref -> {
                dockerd[0] = ref;
                writeState(new Running(Optional.of(ref), host(), Set.of()));
            });
            Docker docker = new Docker(host());
            Docker.Result init = docker.run(
                    "swarm", "init", "--advertise-addr", "127.0.0.1", "--listen-addr", "127.0.0.1:" + MANAGEMENT_PORT);
            if (init.code() != 0) {
                throw new UserError("docker swarm init failed: " + init.firstErrorLine());
            }
            createNetwork(docker);
            createSecrets(docker);
            out.printf(
                    "swarm of one node ready after %.1f s: Docker %s, dockerd pid %d, DOCKER_HOST=%s%n",
                    (System.nanoTime() - started) / 1e9, serverVersion(docker), dockerd[0].pid(), host());
            return new Running(Optional.of(dockerd[0]), host(), Set.of());
        } catch (RuntimeException | Error | InterruptedException | IOException e) {
            if (dockerd[0] != null) {
                engine.stop(dockerd[0]);
            }
            Files.deleteIfExists(dir.resolve(STATE_FILE));
            throw e;
        }
    }

    /**
     * Uses the engine at {@code host}, which the suite did not start: makes it a single-node swarm
     * manager if it is in no swarm, creates the overlay network if it is missing and the stacks'
     * secrets, recording each as it is made. Refuses, before anything is made, when the engine does
     * not answer, is a swarm's worker, or its swarm has a secret of the stacks already (whose password
     * the suite could not read) or a network of the overlay's name that is no attachable overlay.
     */
    public Running useExisting(String host) throws IOException, InterruptedException {
        Optional<Running> already = running();
        if (already.isPresent()) {
            sayInUse(already.get());
            return already.get();
        }
        long started = System.nanoTime();
        Docker docker = new Docker(host);
        Docker.Result info = docker.run("info", "--format", "{{.Swarm.LocalNodeState}} {{.Swarm.ControlAvailable}}");
        if (info.code() != 0) {
            throw new UserError("no Docker engine answers at " + host + " (docker info: " + info.firstErrorLine()
                    + "); name it with --docker-host or DOCKER_HOST");
        }
        String state = info.output().strip();
        boolean makeSwarm = state.equals("inactive false");
        if (makeSwarm) {
            requireManagementPortFree();
        } else if (!state.equals("active true")) {
            throw new UserError("the engine at " + host + " is in a swarm but not one of its managers (swarm state and"
                    + " manager: '" + state + "'); run bench swarm up --use-existing against a manager");
        } else {
            for (String secret : SECRETS) {
                if (docker.run("secret", "inspect", secret).code() == 0) {
                    throw new UserError("the swarm at " + host + " has a secret " + secret + " already, whose"
                            + " password the suite cannot read: remove it (docker secret rm " + secret + ") if an"
                            + " earlier run left it, or deploy with your own secrets and --db-password-file"
                            + " (docker-swarm/README.md)");
                }
            }
        }
        Docker.Result network =
                docker.run("network", "inspect", "--format", "{{.Driver}} {{.Attachable}}", Swarm.NETWORK);
        boolean makeNetwork = network.code() != 0;
        if (!makeNetwork && !network.output().strip().equals("overlay true")) {
            throw new UserError("the engine at " + host + " has a network " + Swarm.NETWORK + " that is no"
                    + " attachable overlay network (driver and attachable: '"
                    + network.output().strip()
                    + "'); the stacks join one of that name: remove or rename it");
        }
        Files.createDirectories(dir);
        Set<Made> made = EnumSet.noneOf(Made.class);
        try {
            if (makeSwarm) {
                out.println("the engine at " + host + " is in no swarm: making it a swarm of one node on 127.0.0.1");
                made.add(Made.SWARM); // recorded first: a swarm init that fails half-way is left again by down
                writeState(new Running(Optional.empty(), host, made));
                Docker.Result init = docker.run(
                        "swarm",
                        "init",
                        "--advertise-addr",
                        "127.0.0.1",
                        "--listen-addr",
                        "127.0.0.1:" + MANAGEMENT_PORT);
                if (init.code() != 0) {
                    throw new UserError("docker swarm init failed: " + init.firstErrorLine());
                }
            }
            if (makeNetwork) {
                made.add(Made.NETWORK);
                writeState(new Running(Optional.empty(), host, made));
                createNetwork(docker);
            }
            made.add(Made.SECRETS);
            writeState(new Running(Optional.empty(), host, made));
            createSecrets(docker);
        } catch (RuntimeException | Error | InterruptedException | IOException e) {
            removeMade(docker, made);
            Files.deleteIfExists(dir.resolve(STATE_FILE));
            throw e;
        }
        out.printf(
                "using the engine at %s (Docker %s), which the suite did not start; made on it: %s; bench swarm down"
                        + " removes only those and the suite's stacks, and leaves the engine running (%.1f s)%n",
                host,
                serverVersion(docker),
                made.stream().map(m -> m.name().toLowerCase(Locale.ROOT)).toList(),
                (System.nanoTime() - started) / 1e9);
        return new Running(Optional.empty(), host, made);
    }

    /**
     * What the suite's swarm is now, a line each: which engine (its own, or one that ran already and
     * what up made there), and each of the suite's stacks with its services' replicas.
     */
    public List<String> status() throws IOException, InterruptedException {
        Optional<Running> running = running();
        if (running.isEmpty()) {
            return List.of("the suite's swarm is not up (bench swarm up, or up --use-existing)");
        }
        List<String> lines = new ArrayList<>();
        Running engine = running.get();
        lines.add(
                engine.ownEngine()
                        ? "the suite's own engine: dockerd pid "
                                + engine.dockerd().orElseThrow().pid() + ", " + engine.host()
                        : "an engine the suite did not start: " + engine.host() + "; up made on it: "
                                + engine.made().stream()
                                        .sorted()
                                        .map(m -> m.name().toLowerCase(Locale.ROOT))
                                        .toList());
        Docker docker = new Docker(engine.host());
        Docker.Result version = docker.run("info", "--format", "{{.ServerVersion}}");
        if (version.code() != 0) {
            lines.add("it does not answer: " + version.firstErrorLine());
            return lines;
        }
        List<String> stacks = suiteStacks(docker);
        if (stacks.isEmpty()) {
            lines.add("no stack of the suite is deployed");
        }
        for (String stack : stacks) {
            lines.add("stack " + stack + ": "
                    + String.join(
                            ", ",
                            docker.run("stack", "services", "--format", "{{.Name}} {{.Replicas}}", stack)
                                    .output()
                                    .strip()
                                    .lines()
                                    .map(service -> service.substring(stack.length() + 1))
                                    .sorted()
                                    .toList()));
        }
        return lines;
    }

    private void sayInUse(Running running) {
        out.println(
                running.ownEngine()
                        ? "the suite's swarm already runs (dockerd pid "
                                + running.dockerd().orElseThrow().pid() + ", " + running.host() + ")"
                        : "the suite already uses the engine at " + running.host()
                                + " (bench swarm down to stop using it)");
    }

    private static String serverVersion(Docker docker) throws IOException, InterruptedException {
        return docker.run("info", "--format", "{{.ServerVersion}}").output().strip();
    }

    private static void createNetwork(Docker docker) throws IOException, InterruptedException {
        Docker.Result network = docker.run("network", "create", "--driver", "overlay", "--attachable", Swarm.NETWORK);
        if (network.code() != 0) {
            throw new UserError(
                    "creating the overlay network " + Swarm.NETWORK + " failed: " + network.firstErrorLine());
        }
    }

    private void createSecrets(Docker docker) throws IOException, InterruptedException {
        for (String secret : SECRETS) {
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
    }

    /**
     * Removes the suite's stacks and their volumes, then, on the suite's own engine, leaves the swarm
     * and stops the engine; on an engine that ran already, removes what up made there and nothing
     * else. Returns the engine it was on; empty if no swarm of the suite was up.
     */
    public Optional<Running> down() throws IOException, InterruptedException {
        Optional<Running> running = running();
        if (running.isEmpty()) {
            Files.deleteIfExists(dir.resolve(STATE_FILE));
            engine().unmountNetworkNamespaces(); // an engine that was killed leaves them too
            return running;
        }
        Docker docker = new Docker(running.get().host());
        if (!running.get().ownEngine()) {
            Docker.Result info = docker.run("info", "--format", "{{.ServerVersion}}");
            if (info.code() != 0) {
                throw new UserError("the engine at " + running.get().host() + " does not answer ("
                        + info.firstErrorLine() + "); run bench swarm down again once it does, to remove what the"
                        + " suite made there: " + running.get().made());
            }
        }
        removeStacks(docker);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CONTAINERS_GONE_SECONDS);
        // stopped containers too: a task's container still holds its volume until the swarm removes it
        while (!stackContainers(docker).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(500);
        }
        List<String> left = stackContainers(docker);
        if (!left.isEmpty()) {
            out.println("removing " + left.size() + " containers the stacks left");
            docker.run(concat(List.of("rm", "--force"), left));
        }
        removeStackVolumes(docker);
        if (running.get().ownEngine()) {
            docker.run("swarm", "leave", "--force");
            engine().stop(running.get().dockerd().orElseThrow());
        } else {
            removeMade(docker, running.get().made());
        }
        Files.deleteIfExists(dir.resolve(STATE_FILE));
        return running;
    }

    private void removeStacks(Docker docker) throws IOException, InterruptedException {
        for (String stack : suiteStacks(docker)) {
            out.println("removing stack " + stack);
            docker.run("stack", "rm", stack);
        }
    }

    /** The suite's stacks (streambench-*) on the engine, and only those: the engine may be a user's. */
    private static List<String> suiteStacks(Docker docker) throws IOException, InterruptedException {
        return docker.run("stack", "ls", "--format", "{{.Name}}")
                .output()
                .strip()
                .lines()
                .filter(stack -> stack.startsWith(Swarm.STACK_PREFIX))
                .toList();
    }

    /** The containers, running or stopped, of the suite's stacks (and only those: the engine may be a user's). */
    private static List<String> stackContainers(Docker docker) throws IOException, InterruptedException {
        return docker.run(
                        "ps",
                        "--all",
                        "--filter",
                        "label=" + STACK_LABEL,
                        "--format",
                        "{{.ID}} {{.Label \"" + STACK_LABEL + "\"}}")
                .output()
                .strip()
                .lines()
                .map(line -> line.split(" ", 2))
                .filter(fields -> fields.length == 2 && fields[1].startsWith(Swarm.STACK_PREFIX))
                .map(fields -> fields[0])
                .toList();
    }

    /** Removes, from an engine the suite did not start, what up made there: secrets, network, swarm. */
    private void removeMade(Docker docker, Set<Made> made) throws IOException, InterruptedException {
        if (made.contains(Made.SECRETS)) {
            for (String secret : SECRETS) {
                Docker.Result removed = docker.run("secret", "rm", secret);
                if (removed.code() != 0 && !removed.firstErrorLine().contains("not found")) {
                    out.println("could not remove the secret " + secret + ": " + removed.firstErrorLine());
                }
            }
        }
        if (made.contains(Made.NETWORK)) {
            Docker.Result removed = docker.run("network", "rm", Swarm.NETWORK);
            if (removed.code() != 0 && !removed.firstErrorLine().contains("not found")) {
                out.println("could not remove the network " + Swarm.NETWORK + ": " + removed.firstErrorLine());
            }
        }
        if (made.contains(Made.SWARM)) {
            List<String> others = docker.run("service", "ls", "--format", "{{.Name}}")
                    .output()
                    .strip()
                    .lines()
                    .filter(service -> !service.isBlank() && !service.startsWith(Swarm.STACK_PREFIX))
                    .toList();
            if (!others.isEmpty()) {
                out.println("the swarm up made runs services that are not the suite's now (" + String.join(", ", others)
                        + "): it stays; docker swarm leave --force ends it");
                return;
            }
            Docker.Result left = docker.run("swarm", "leave", "--force");
            if (left.code() != 0 && !left.firstErrorLine().contains("not part of a swarm")) {
                out.println("could not leave the swarm: " + left.firstErrorLine());
            }
        }
    }

    /**
     * The stacks' volumes hold benchmark data only, and a database's data volume keeps the password
     * it was initialised with, which the next up replaces: down removes them.
     */
    private void removeStackVolumes(Docker docker) throws IOException, InterruptedException {
        List<String> volumes = docker.run("volume", "ls", "--quiet", "--filter", "label=" + STACK_LABEL)
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

    /** What up would trip over, checked before it starts anything. */
    private void requireStartable() {
        if (!Docker.installed("dockerd")) {
            throw new UserError("dockerd is not installed; install it (apt-get install docker.io, which ./bench swarm"
                    + " up does by itself when it runs as root) and retry");
        }
        ProcessHandle.allProcesses().filter(DockerEngine::isDockerd).findFirst().ifPresent(other -> {
            throw new UserError("another dockerd runs (pid " + other.pid() + "); the suite starts an engine of"
                    + " its own and shares none unless told: stop it, or use it with bench swarm up"
                    + " --use-existing (down then removes only what the suite made there)");
        });
        requireManagementPortFree();
    }

    private static void requireManagementPortFree() {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), MANAGEMENT_PORT));
        } catch (IOException e) {
            throw new UserError("port " + MANAGEMENT_PORT + " (Swarm's cluster management) is in use on 127.0.0.1");
        }
    }

    private void writeState(Running running) {
        Properties p = new Properties();
        running.dockerd().ifPresent(dockerd -> p.setProperty("dockerd", dockerd.toString()));
        p.setProperty("host", running.host());
        p.setProperty(
                "made",
                String.join(
                        ",", running.made().stream().map(Made::name).sorted().toList()));
        StringWriter text = new StringWriter();
        try {
            Files.createDirectories(dir);
            p.store(text, "streambench local swarm");
            Folders.replaceAtomically(dir.resolve(STATE_FILE), text.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }
}
