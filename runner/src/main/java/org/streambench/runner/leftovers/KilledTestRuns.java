package org.streambench.runner.leftovers;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.Charset;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.streambench.local.Home;
import org.streambench.local.Lease;
import org.streambench.runner.monitor.Prometheus;
import org.streambench.runner.swarm.LocalSwarm;
import org.streambench.runner.yarn.LocalYarn;
import org.streambench.servers.LocalServers;

/**
 * Stops what a killed test run left behind. The tests start their servers, their swarm's dockerd, a
 * YARN and a Prometheus under a module's {@code target/test-work*} folder, and stop them when their
 * JVM ends, but a SIGKILLed test JVM (a time limit, kill -9) cannot. Each test JVM holds the lease
 * {@link Home#TEST_WORK_LEASE} of its folder for its whole life, so a folder whose lease no process
 * holds belongs to a test run that has ended: whatever still runs from it, or from the other work
 * folders the JVM listed there ({@link Home#TEST_WORK_OTHERS}), is stopped by the next {@code ./bench}
 * command (the launcher runs this first). The folders of a test run that still runs are left alone.
 */
public final class KilledTestRuns {

    /** How deep below the checkout a Maven module lies (db-connectors/postgresql/connector: 3). */
    private static final int MODULE_DEPTH = 3;

    /** Folders that are no module: the run-time state, results and build output. */
    private static final Set<String> NOT_MODULES = Set.of("work", "results", "target", "src", "node_modules");

    private KilledTestRuns() {}

    /**
     * The launcher's entry: cleans up after killed test runs of the checkout (or of the folder given,
     * laid out as one), one line per thing stopped.
     */
    public static void main(String[] args) {
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, Charset.defaultCharset()), true);
        stopWhatTheyLeft(args.length > 0 ? Path.of(args[0]) : Home.root(), err);
    }

    /**
     * Stops the servers, swarm, YARN and Prometheus that still run from a test work folder under
     * {@code checkout} whose test JVM has ended, and says so on {@code out}. Never throws: a failure
     * to stop one thing is a line, and the next is tried.
     */
    public static void stopWhatTheyLeft(Path checkout, PrintWriter out) {
        for (Path testWork : endedTestWorkFolders(checkout)) {
            for (Path work : withTheOthersItListed(testWork)) {
                stopEverythingIn(work, out);
            }
            try {
                Files.deleteIfExists(testWork.resolve(Home.TEST_WORK_OTHERS));
            } catch (IOException e) {
                out.println("bench: could not remove " + testWork.resolve(Home.TEST_WORK_OTHERS) + ": " + e);
            }
        }
    }

    private static List<Path> endedTestWorkFolders(Path checkout) {
        List<Path> folders = new ArrayList<>();
        collectTestWorkFolders(checkout, 0, folders);
        return folders.stream()
                .filter(work -> Files.isRegularFile(work.resolve(Home.TEST_WORK_LEASE)))
                .filter(work -> !Lease.heldElsewhere(work.resolve(Home.TEST_WORK_LEASE)))
                .toList();
    }

    private static List<Path> withTheOthersItListed(Path testWork) {
        List<Path> works = new ArrayList<>(List.of(testWork));
        try {
            Path others = testWork.resolve(Home.TEST_WORK_OTHERS);
            if (Files.isRegularFile(others)) {
                Files.readAllLines(others).stream()
                        .filter(line -> !line.isBlank())
                        .map(Path::of)
                        .filter(Files::isDirectory)
                        .distinct()
                        .forEach(works::add);
            }
        } catch (IOException | RuntimeException unreadable) {
            // the test work folder itself is still cleaned up
        }
        return works;
    }

    /** The {@code target/test-work*} folders of the modules at {@code dir} and below, down to {@link #MODULE_DEPTH}. */
    private static void collectTestWorkFolders(Path dir, int depth, List<Path> folders) {
        if (depth > 0) {
            try (DirectoryStream<Path> works = Files.newDirectoryStream(dir.resolve("target"), "test-work*")) {
                works.forEach(folders::add);
            } catch (IOException | RuntimeException noneHere) {
                // no target folder, or no test work in it
            }
        }
        if (depth == MODULE_DEPTH) {
            return;
        }
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir, Files::isDirectory)) {
            for (Path child : children) {
                if (!NOT_MODULES.contains(child.getFileName().toString())
                        && Files.isRegularFile(child.resolve("pom.xml"))) {
                    collectTestWorkFolders(child, depth + 1, folders);
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // an unreadable folder holds nothing of ours to stop
        }
    }

    private static void stopEverythingIn(Path work, PrintWriter out) {
        PrintWriter quiet = new PrintWriter(new StringWriter());
        try {
            LocalServers servers = new LocalServers(work, quiet);
            for (String database : LocalServers.supported()) {
                try {
                    if (servers.running(database).isPresent() && servers.stop(database)) {
                        say(out, database + " server", work);
                    }
                } catch (RuntimeException e) {
                    cannotStop(out, database + " server", work, e);
                }
            }
        } catch (RuntimeException e) {
            cannotStop(out, "database servers", work, e);
        }
        try {
            LocalSwarm swarm = new LocalSwarm(work, quiet);
            if (swarm.running().isPresent() && swarm.down().isPresent()) {
                say(out, "swarm (its dockerd, stacks and network namespaces)", work);
            }
        } catch (IOException | RuntimeException e) {
            cannotStop(out, "swarm", work, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            LocalYarn yarn = new LocalYarn(work, quiet);
            if (yarn.running().isPresent() && yarn.stop()) {
                say(out, "YARN", work);
            }
        } catch (IOException | RuntimeException e) {
            cannotStop(out, "YARN", work, e);
        }
        try {
            Prometheus prometheus = new Prometheus(work, quiet);
            if (prometheus.running().isPresent() && prometheus.stop()) {
                say(out, "Prometheus", work);
            }
        } catch (IOException | RuntimeException e) {
            cannotStop(out, "Prometheus", work, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void say(PrintWriter out, String what, Path work) {
        out.println("bench: stopped the " + what + " that a killed test run left running in " + work);
    }

    private static void cannotStop(PrintWriter out, String what, Path work, Exception e) {
        out.println("bench: could not stop the " + what + " that a killed test run left in " + work + ": "
                + e.getMessage());
    }
}
