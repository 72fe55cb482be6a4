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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.streambench.local.Home;
import org.streambench.local.Lease;
import org.streambench.local.UserError;
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
        if (args.length > 0) {
            stopWhatTheyLeft(Path.of(args[0]), err);
        } else {
            stopWhatTheyLeftInThisCheckout(err);
        }
    }

    /** As {@link #stopWhatTheyLeft}, in the checkout this runs from; nothing outside one (a command says so if it needs one). */
    public static void stopWhatTheyLeftInThisCheckout(PrintWriter out) {
        Path checkout;
        try {
            checkout = Home.root();
        } catch (UserError notInACheckout) {
            return;
        }
        stopWhatTheyLeft(checkout, out);
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

    /** One kind of thing a test starts in a work folder: stops it if it runs there, true if it did. */
    private interface Leftover {
        boolean stopIfRunning(Path work, PrintWriter quiet) throws Exception;
    }

    private static void stopEverythingIn(Path work, PrintWriter out) {
        Map<String, Leftover> leftovers = new LinkedHashMap<>();
        LocalServers servers = new LocalServers(work, new PrintWriter(new StringWriter()));
        for (String database : LocalServers.supported()) {
            leftovers.put(
                    database + " server",
                    (folder, quiet) -> servers.running(database).isPresent() && servers.stop(database));
        }
        leftovers.put("swarm (its dockerd, stacks and network namespaces)", (folder, quiet) -> {
            LocalSwarm swarm = new LocalSwarm(folder, quiet);
            return swarm.running().isPresent() && swarm.down().isPresent();
        });
        leftovers.put("YARN", (folder, quiet) -> {
            LocalYarn yarn = new LocalYarn(folder, quiet);
            return yarn.running().isPresent() && yarn.stop();
        });
        leftovers.put("Prometheus", (folder, quiet) -> {
            Prometheus prometheus = new Prometheus(folder, quiet);
            return prometheus.running().isPresent() && prometheus.stop();
        });
        leftovers.forEach((what, leftover) -> {
            try {
                if (leftover.stopIfRunning(work, new PrintWriter(new StringWriter()))) {
                    out.println("bench: stopped the " + what + " that a killed test run left running in " + work);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                out.println("bench: could not stop the " + what + " that a killed test run left in " + work + ": "
                        + e.getMessage());
            }
        });
    }
}
