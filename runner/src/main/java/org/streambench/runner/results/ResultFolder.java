package org.streambench.runner.results;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.streambench.local.Home;
import org.streambench.local.Lease;
import org.streambench.local.UserError;
import org.streambench.operators.ExperimentSpec;

/**
 * A result folder has one writer at a time: a run (or a matrix) claims its folder before it
 * writes anything, with a {@link Lease} on a file in it, and a second command given the same folder
 * is refused in one line instead of writing into the first one's results.
 */
public final class ResultFolder implements AutoCloseable {

    /** The lease's file; a folder that holds nothing else is still empty. */
    public static final String LOCK = ".bench.lock";

    private final Path dir;
    private final Lease lease;

    private ResultFolder(Path dir, Lease lease) {
        this.dir = dir;
        this.lease = lease;
    }

    /** The default folder of a run's results: {@code results/yyyyMMdd-HHmmss-ENGINE-DATABASE-PATTERN-BLOB} (local time). */
    public static Path defaultFor(ExperimentSpec spec) {
        return Home.root()
                .resolve("results")
                .resolve(stamp() + "-" + spec.engine() + "-" + spec.database() + "-"
                        + spec.pattern().cliName() + "-" + spec.blobBytes());
    }

    /** The default folder of a command's results: {@code results/NAME-yyyyMMdd-HHmmss} (local time). */
    public static Path defaultFor(String name) {
        return Home.root().resolve("results").resolve(name + "-" + stamp());
    }

    private static String stamp() {
        return LocalDateTime.now(ZoneId.systemDefault()).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    }

    /** The result folder must be empty or creatable, and writable; checked by creating it and removing what was created. */
    public static void requireUsable(Path dir) throws IOException {
        requireOutsideWork(dir, "--out");
        if (Lease.heldElsewhere(dir.resolve(LOCK))) {
            throw new UserError("result folder " + dir + " is in use by another bench; wait for it to end, or choose"
                    + " another --out");
        }
        if (Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.anyMatch(entry -> !entry.getFileName().toString().equals(LOCK))) {
                    throw new UserError("result folder " + dir + " is not empty; choose another --out");
                }
            }
        } else if (Files.exists(dir)) {
            throw new UserError("--out " + dir + " is a file, not a folder");
        }
        List<Path> missing = new ArrayList<>(); // the folders this check creates, deepest first, to remove afterwards
        for (Path path = dir.toAbsolutePath();
                !Files.exists(path, LinkOption.NOFOLLOW_LINKS);
                path = path.getParent()) {
            missing.add(path);
        }
        Path probe = null;
        try {
            Files.createDirectories(dir);
            probe = Files.createTempFile(dir, ".write-test", "");
        } catch (IOException | SecurityException e) {
            throw new UserError("cannot write the result folder " + dir + " ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + "); choose another --out");
        } finally {
            if (probe != null) {
                Files.deleteIfExists(probe);
            }
            for (Path created : missing) {
                if (Files.isDirectory(created, LinkOption.NOFOLLOW_LINKS)) {
                    Files.delete(created);
                }
            }
        }
    }

    /** Claims {@code dir} for a run that needs it empty (creating it); throws a {@link UserError} when it is taken or not empty. */
    public static ResultFolder claimEmpty(Path dir, String option) {
        ResultFolder claimed = claim(dir, option);
        try (Stream<Path> entries = Files.list(dir)) {
            if (entries.anyMatch(entry -> !entry.getFileName().toString().equals(LOCK))) {
                claimed.close();
                throw new UserError("result folder " + dir + " is not empty; choose another " + option);
            }
        } catch (IOException e) {
            claimed.close();
            throw new UncheckedIOException(e);
        }
        return claimed;
    }

    /** Claims {@code dir}, which holds results already (a matrix to resume); throws a {@link UserError} when it is taken. */
    public static ResultFolder claimExisting(Path dir, String option) {
        return claim(dir, option);
    }

    private static ResultFolder claim(Path dir, String option) {
        requireOutsideWork(dir, option);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UserError(
                    "cannot create the result folder " + dir + " (" + e.getMessage() + "); choose another " + option);
        }
        return new ResultFolder(
                dir,
                Lease.take(
                        dir.resolve(LOCK), "result folder " + dir, "wait for it to end, or choose another " + option));
    }

    /**
     * A result folder never lies inside the suite's work folder, where the local servers keep their
     * data and YARN, Prometheus and the swarm their state: a run would write into a database's data
     * directory, and a reset or {@code bench db stop} could remove the results.
     */
    public static void requireOutsideWork(Path dir, String option) {
        Path work = realOrAbsolute(Home.work());
        Path target = realOrAbsolute(dir);
        if (target.startsWith(work)) {
            throw new UserError(
                    option + " " + dir + " is inside the suite's work folder " + Home.work()
                            + ", where its servers keep their data; choose a folder outside it (the default is under results/)");
        }
    }

    /** The path with every link that exists resolved (the folder itself may not exist yet). */
    private static Path realOrAbsolute(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return absolute;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(absolute));
        } catch (IOException e) {
            return absolute;
        }
    }

    @Override
    public void close() {
        lease.close();
        try {
            Files.deleteIfExists(dir.resolve(LOCK));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
