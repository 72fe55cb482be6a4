package org.streambench.runner.ceiling;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.streambench.db.CeilingTool;
import org.streambench.local.Folders;
import org.streambench.model.CeilingDocument;
import org.streambench.model.CeilingJson;
import org.streambench.operators.AccessMode;
import org.streambench.operators.ExperimentSpec;
import org.streambench.runner.experiment.DatabaseSession;
import org.streambench.runner.results.RunResult;

/**
 * {@code bench matrix --ceiling}: the ceiling of each database x pattern x BLOB x parallelism is
 * measured once, after the first cell of it that passed, into {@code MATRIX/ceilings/KEY}; every
 * later cell of it, also after {@code --resume}, reads it from there. Each access mode has its own
 * ceiling: the tool makes its calls as the connector does in that mode.
 */
public final class MatrixCeilings {

    public static final String FOLDER = "ceilings";

    private final Path matrixDir;

    public MatrixCeilings(Path matrixDir) {
        this.matrixDir = matrixDir;
    }

    /**
     * The ceiling a cell shares with the matrix's other cells: database, pattern, BLOB, threads and
     * access mode (e.g. {@code postgresql-update-10000-t2}, {@code hbase-update-10000-t2-batch8}).
     */
    public static String key(ExperimentSpec spec) {
        AccessMode access = spec.access();
        return String.format(
                Locale.ROOT,
                "%s-%s-%d-t%d%s",
                spec.database(),
                spec.pattern().cliName(),
                spec.blobBytes(),
                spec.parallelism(),
                access.sync() ? "" : "-" + access.kind().label() + access.size());
    }

    /**
     * Records the cell's ceiling in its result.json, measuring it first if no earlier cell did. A
     * ceiling that failed (the tool failed, or its writes are not in the database) is an {@link
     * IllegalStateException}: the cell then counts as failed, and {@code --resume --retry-failed}
     * measures it again.
     */
    public void addTo(
            Path cellDir,
            ExperimentSpec spec,
            RunResult result,
            CeilingTool tool,
            DatabaseSession session,
            PrintWriter log)
            throws InterruptedException {
        String key = key(spec);
        Path folder = matrixDir.resolve(FOLDER).resolve(key);
        String relative = cellDir.relativize(folder).toString();
        try {
            CeilingDocument ceiling = measured(folder);
            if (ceiling != null) {
                log.println("ceiling: measured by an earlier cell, in " + folder);
            } else {
                Folders.deleteTree(folder);
                try {
                    ceiling = CeilingBesideRun.measure(tool, spec, session, folder, log);
                } catch (RuntimeException e) { // e.g. the prefill failed: the cell's own result stands beside it
                    String error = tool.name() + ": " + e.getMessage();
                    CeilingBesideRun.recordFailure(cellDir, tool.name(), spec.parallelism(), error, relative);
                    throw new IllegalStateException("the ceiling failed: " + error, e);
                }
            }
            CeilingBesideRun.record(cellDir, ceiling, result, relative);
            Double ratio = CeilingBesideRun.ratio(result, ceiling);
            log.printf(
                    Locale.ROOT,
                    "ceiling (%s, %d thread%s): %s%n",
                    tool.name(),
                    spec.parallelism(),
                    spec.parallelism() == 1 ? "" : "s",
                    !ceiling.status().equals("ok")
                            ? "FAILED: " + ceiling.error()
                            : String.format(
                                    Locale.ROOT,
                                    "%,.0f operations/s%s",
                                    ceiling.result().throughput(),
                                    ratio == null
                                            ? ""
                                            : String.format(Locale.ROOT, "; the pipeline reached %.2f of it", ratio)));
            if (!ceiling.status().equals("ok")) {
                throw new IllegalStateException("the ceiling failed: " + ceiling.error());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many ceilings the matrix holds, and how many of them were verified: e.g. "2 ceilings (2 verified) in DIR". */
    public String summary() throws IOException {
        Path root = matrixDir.resolve(FOLDER);
        long all = 0;
        long verified = 0;
        if (Files.isDirectory(root)) {
            try (var folders = Files.list(root)) {
                for (Path folder : folders.toList()) {
                    if (Files.isRegularFile(folder.resolve(CeilingDocument.FILE))) {
                        all++;
                        verified += measured(folder) != null ? 1 : 0;
                    }
                }
            }
        }
        return String.format(Locale.ROOT, "%d ceiling%s (%d verified) in %s", all, all == 1 ? "" : "s", verified, root);
    }

    /** The ceiling an earlier cell measured and verified in {@code folder}; null if none did. */
    private static CeilingDocument measured(Path folder) throws IOException {
        Path file = folder.resolve(CeilingDocument.FILE);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        CeilingDocument document = CeilingJson.read(file);
        return document.status().equals("ok") ? document : null;
    }
}
