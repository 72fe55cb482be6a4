package org.streambench.runner.swarm;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.streambench.local.Home;
import org.streambench.local.UserError;

/**
 * The images of the single-node stacks, built offline (no registry is needed): a Debian base image
 * per release that a Dockerfile names ({@code FROM local/debian:SUITE}), made with debootstrap and
 * {@code docker import}, then {@code docker build} of every {@code docker-swarm/images/NAME/Dockerfile}
 * as {@code local/streambench-NAME:latest}. An image whose folder has a file {@value #CLASSPATH_FILE}
 * gets Maven-resolved jars the suite already has: each of its lines, {@code MODULE FOLDER}, puts the
 * module's classpath (its jars, and its classes as {@code FOLDER/classes}) into {@code FOLDER} of a
 * build context staged under the swarm's work folder, with their order in {@code FOLDER/}{@value #ORDER_FILE}.
 * An image whose folder has a file {@value #INCLUDE_FILE} gets the files it names (paths under
 * {@code docker-swarm/images}, such as {@code common/hdfs-roles.sh}) at the top of its staged context,
 * for scripts that several images share. Built images and Docker's build cache stay in the suite's
 * engine, so a second run takes seconds.
 */
public final class SwarmImages {

    static final String IMAGE_PREFIX = "local/streambench-";
    static final String CLASSPATH_FILE = "classpath";
    static final String ORDER_FILE = "classpath.txt";
    static final String INCLUDE_FILE = "include";
    private static final Pattern FROM = Pattern.compile("(?m)^FROM\\s+local/debian:(\\S+)\\s*$");
    private static final String MIRROR = "http://deb.debian.org/debian";
    private static final long DEBOOTSTRAP_SECONDS = 900;

    private final Path folder;
    private final Path work;
    private final Docker docker;
    private final PrintWriter out;

    SwarmImages(Path folder, Path work, Docker docker, PrintWriter out) {
        this.folder = folder;
        this.work = work;
        this.docker = docker;
        this.out = out;
    }

    public static SwarmImages of(Path folder, LocalSwarm swarm, PrintWriter out) {
        LocalSwarm.Running running = swarm.running()
                .orElseThrow(() -> new UserError(
                        "the suite's swarm does not run; start it with bench swarm up (or up --use-existing)"));
        return new SwarmImages(folder, swarm.dir(), new Docker(running.host()), out);
    }

    /** The images there are: the folders of docker-swarm/images with a Dockerfile. */
    public List<String> names() throws IOException {
        try (Stream<Path> dirs = Files.list(folder)) {
            return dirs.filter(dir -> Files.isRegularFile(dir.resolve("Dockerfile")))
                    .map(dir -> dir.getFileName().toString())
                    .sorted()
                    .toList();
        }
    }

    /** Builds {@code requested} (empty: every image), each base image first; returns the seconds it took. */
    public double build(List<String> requested) throws IOException, InterruptedException {
        long start = System.nanoTime();
        List<String> all = names();
        List<String> names = requested.isEmpty() ? all : requested;
        for (String name : names) {
            if (!all.contains(name)) {
                throw new UserError(
                        "no image '" + name + "' in " + folder + "; the images are: " + String.join(", ", all));
            }
        }
        Set<String> suites = new LinkedHashSet<>();
        for (String name : names) {
            Matcher m =
                    FROM.matcher(Files.readString(folder.resolve(name).resolve("Dockerfile"), StandardCharsets.UTF_8));
            if (m.find()) {
                suites.add(m.group(1));
            }
        }
        for (String suite : suites) {
            baseImage(suite);
        }
        for (String name : names) {
            long began = System.nanoTime();
            out.println("building " + IMAGE_PREFIX + name + " from " + folder.resolve(name) + " ...");
            out.flush();
            Path context = context(name);
            Docker.Result built =
                    docker.run(List.of("build", "--tag", IMAGE_PREFIX + name + ":latest", context.toString()));
            if (!context.equals(folder.resolve(name))) {
                deleteTree(context);
            }
            if (built.code() != 0) {
                Path log = work.resolve("build-" + name + ".log");
                Files.writeString(log, built.output() + built.errors(), StandardCharsets.UTF_8);
                throw new UserError(
                        "docker build of " + name + " failed: " + lastLine(built.errors()) + " (log: " + log + ")");
            }
            out.printf(
                    Locale.ROOT,
                    "built %s%s:latest in %.1f s%n",
                    IMAGE_PREFIX,
                    name,
                    (System.nanoTime() - began) / 1e9);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /**
     * The build context of image {@code name}: its folder, or a staged copy with the files its include
     * file names and the jars its classpath file names.
     */
    Path context(String name) throws IOException, InterruptedException {
        Path source = folder.resolve(name);
        Path listing = source.resolve(CLASSPATH_FILE);
        Path includes = source.resolve(INCLUDE_FILE);
        if (!Files.isRegularFile(listing) && !Files.isRegularFile(includes)) {
            return source;
        }
        Path context = work.resolve("context-" + name);
        deleteTree(context);
        copyTree(source, context);
        Path root = folder.toAbsolutePath().normalize();
        for (String included : lines(includes)) {
            Path from = root.resolve(included).normalize();
            if (!from.startsWith(root) || !Files.isRegularFile(from)) {
                throw new UserError(
                        source.resolve(INCLUDE_FILE) + " names " + included + ", which is no file in " + folder);
            }
            Files.copy(from, context.resolve(from.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
        }
        for (String line : lines(listing)) {
            String[] words = line.split("\\s+");
            if (words.length != 2) {
                continue;
            }
            Path into = Files.createDirectories(context.resolve(words[1]));
            List<String> order = new ArrayList<>();
            for (String entry : Home.classpathOf(words[0]).split(File.pathSeparator)) {
                Path from = Path.of(entry);
                if (Files.isDirectory(from)) {
                    copyTree(from, into.resolve("classes"));
                    order.add("classes");
                } else if (Files.isRegularFile(from)) {
                    Files.copy(from, into.resolve(from.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
                    order.add(from.getFileName().toString());
                }
            }
            // the classpath's order, for a daemon whose jars carry duplicate classes (a wildcard's order is the
            // directory's)
            Files.write(into.resolve(ORDER_FILE), order, StandardCharsets.UTF_8);
        }
        return context;
    }

    /** The file's lines that hold something, stripped; none when there is no such file. */
    private static List<String> lines(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .toList();
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /** local/debian:SUITE, made with debootstrap unless the engine has it already. */
    private void baseImage(String suite) throws IOException, InterruptedException {
        String tag = "local/debian:" + suite;
        if (docker.run("image", "inspect", tag).code() == 0) {
            return;
        }
        if (!Docker.installed("debootstrap")) {
            throw new UserError("debootstrap is not installed; install it (apt-get install debootstrap, which ./bench"
                    + " swarm images does by itself when it runs as root) and retry");
        }
        long began = System.nanoTime();
        Path rootfs = work.resolve("rootfs-" + suite);
        deleteTree(rootfs);
        out.println("making " + tag + " with debootstrap from " + MIRROR + " ...");
        out.flush();
        run(
                List.of("debootstrap", "--variant=minbase", suite, rootfs.toString(), MIRROR),
                work.resolve("debootstrap-" + suite + ".log"),
                DEBOOTSTRAP_SECONDS);
        Path tar = work.resolve("rootfs-" + suite + ".tar");
        run(
                List.of("tar", "-C", rootfs.toString(), "-cf", tar.toString(), "."),
                work.resolve("tar-" + suite + ".log"),
                DEBOOTSTRAP_SECONDS);
        Docker.Result imported = docker.run(List.of("import", "-", tag), tar);
        Files.deleteIfExists(tar);
        deleteTree(rootfs);
        if (imported.code() != 0) {
            throw new UserError("docker import of " + tag + " failed: " + imported.firstErrorLine());
        }
        out.printf(Locale.ROOT, "made %s in %.1f s%n", tag, (System.nanoTime() - began) / 1e9);
    }

    private static void run(List<String> command, Path log, long timeoutSeconds)
            throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new UserError(command.get(0) + " did not finish within " + timeoutSeconds + " s; see " + log);
        }
        if (process.exitValue() != 0) {
            throw new UserError(command.get(0) + " failed (exit " + process.exitValue() + "): "
                    + lastLine(Files.readString(log, StandardCharsets.UTF_8)) + " (log: " + log + ")");
        }
    }

    private static void deleteTree(Path dir) throws IOException, InterruptedException {
        if (Files.exists(dir)) {
            // a root file system holds device files and read-only folders: rm copes with both
            run(
                    List.of("rm", "-rf", "--one-file-system", dir.toString()),
                    dir.resolveSibling(dir.getFileName() + ".rm.log"),
                    300);
        }
    }

    private static String lastLine(String text) {
        List<String> lines = new ArrayList<>(text.strip().lines().toList());
        return lines.isEmpty() ? "no output" : lines.get(lines.size() - 1);
    }
}
