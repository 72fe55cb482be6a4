package org.streambench.runner.matrix;

import org.streambench.operators.Guarantee;

/**
 * One experiment of a matrix: an engine, a database, a pattern, a BLOB size, an access mode (as
 * {@code --access} takes it) and a processing guarantee (as {@code --guarantee} takes it, with its
 * {@code --checkpoint-interval}; null for the guarantee none), in one repetition.
 */
public record Cell(
        String engine,
        String database,
        String pattern,
        int blobBytes,
        String access,
        String guarantee,
        String checkpointInterval,
        int repetition) {

    public static final String SYNC = "sync";
    public static final String NO_GUARANTEE = Guarantee.NONE.cliName();

    public Cell {
        if (guarantee.equals(NO_GUARANTEE)) {
            checkpointInterval = null;
        }
    }

    /** A cell without a guarantee, as the study ran every cell. */
    public Cell(String engine, String database, String pattern, int blobBytes, String access, int repetition) {
        this(engine, database, pattern, blobBytes, access, NO_GUARANTEE, null, repetition);
    }

    /** A cell of the study's access mode, sync, without a guarantee. */
    public Cell(String engine, String database, String pattern, int blobBytes, int repetition) {
        this(engine, database, pattern, blobBytes, SYNC, repetition);
    }

    /**
     * The cell's folder under the matrix folder, e.g. {@code flink/postgresql/update/10000/rep-1}, with
     * the access mode as a folder of its own unless it is sync ({@code .../10000/batch-100-linger-20ms/rep-1}),
     * and the guarantee with its interval unless it is none ({@code .../10000/exactly-once-10s/rep-1}).
     */
    public String id() {
        return engine + "/" + database + "/" + pattern + "/" + blobBytes + "/"
                + (access.equals(SYNC) ? "" : folderName(access) + "/")
                + (guarantee.equals(NO_GUARANTEE) ? "" : folderName(guarantee + "-" + checkpointInterval) + "/")
                + "rep-" + repetition;
    }

    private static String folderName(String value) {
        return value.replaceAll("[^A-Za-z0-9]+", "-");
    }
}
