package org.streambench.runner.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.streambench.local.Home;
import org.streambench.local.UserError;
import org.streambench.operators.ExperimentSpec;
import org.streambench.servers.LocalServers;

/**
 * A local server keeps its data under work/: rows that cannot fit the free space there are refused
 * before they are written. An external server's disk is its own.
 */
public final class DiskSpace {

    /** Key, six numbers and storage overhead per row, roughly, on every database. */
    private static final int PER_ROW_OVERHEAD_BYTES = 200;
    /** Room for the database's own write amplification (logs, compaction) while it writes. */
    private static final double SPACE_MARGIN = 1.5;

    private DiskSpace() {}

    /** The prefill stores keys x BLOB bytes: a run whose prefill cannot fit is refused before it starts. */
    public static void requireForPrefill(ExperimentSpec spec, ConnectionOptions connection) throws IOException {
        if (!spec.pattern().needsExistingKeys()) {
            return;
        }
        requireFor(
                spec,
                connection,
                spec.keys(),
                String.format(Locale.ROOT, "--keys %d x --blob %d", spec.keys(), spec.blobBytes()),
                "the prefill",
                "lower --keys or --blob");
    }

    /** {@code rows} of the spec's BLOB size, described as {@code what} for {@code purpose}, must fit; else bad input naming the {@code remedy}. */
    public static void requireFor(
            ExperimentSpec spec, ConnectionOptions connection, long rows, String what, String purpose, String remedy)
            throws IOException {
        if (connection.url != null || !LocalServers.supports(spec.database())) {
            return;
        }
        double needed = bytesFor(rows, spec.blobBytes());
        long free = free();
        if (needed > free) {
            throw new UserError(String.format(
                    Locale.ROOT,
                    "%s needs about %.1f GB for %s under %s, but only %.1f GB are free; %s, or free disk space",
                    what,
                    needed / 1e9,
                    purpose,
                    Home.work(),
                    free / 1e9,
                    remedy));
        }
    }

    static double bytesFor(long rows, int blobBytes) {
        return rows * (double) (blobBytes + PER_ROW_OVERHEAD_BYTES) * SPACE_MARGIN;
    }

    private static long free() throws IOException {
        Path work = Home.work().toAbsolutePath();
        while (!Files.exists(work)) {
            work = work.getParent();
        }
        return Files.getFileStore(work).getUsableSpace();
    }
}
