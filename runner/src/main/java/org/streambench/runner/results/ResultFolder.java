package org.streambench.runner.results;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.streambench.local.Home;
import org.streambench.local.Lease;
import org.streambench.local.UserError;

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
