package org.streambench.runner.matrix;

/**
 * One experiment of a matrix: an engine, a database, a pattern, a BLOB size and an access mode
 * (as {@code --access} takes it), in one repetition.
 */
public record Cell(String engine, String database, String pattern, int blobBytes, String access, int repetition) {

    public static final String SYNC = "sync";

    /** A cell of the study's access mode, sync. */
    public Cell(String engine, String database, String pattern, int blobBytes, int repetition) {
        this(engine, database, pattern, blobBytes, SYNC, repetition);
    }

    /**
     * The cell's folder under the matrix folder, e.g. {@code flink/postgresql/update/10000/rep-1}, with
     * the access mode as a folder of its own unless it is sync ({@code .../10000/batch-100-linger-20ms/rep-1}).
     */
    public String id() {
        return engine + "/" + database + "/" + pattern + "/" + blobBytes + "/"
                + (access.equals(SYNC) ? "" : access.replaceAll("[^A-Za-z0-9]+", "-") + "/") + "rep-" + repetition;
    }
}
