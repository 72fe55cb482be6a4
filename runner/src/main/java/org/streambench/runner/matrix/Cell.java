package org.streambench.runner.matrix;

/** One experiment of a matrix: an engine, a database, a pattern and a BLOB size, in one repetition. */
public record Cell(String engine, String database, String pattern, int blobBytes, int repetition) {

    /** The cell's folder under the matrix folder, e.g. {@code flink/postgresql/update/10000/rep-1}. */
    public String id() {
        return engine + "/" + database + "/" + pattern + "/" + blobBytes + "/rep-" + repetition;
    }
}
