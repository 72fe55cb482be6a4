package org.streambench.runner.matrix;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.streambench.generator.KeyDistribution;
import org.streambench.model.AccessModeName;
import org.streambench.operators.Guarantee;

/**
 * One experiment of a matrix: an engine, a database, a pattern, a BLOB size, an access mode (as
 * {@code --access} takes it), a processing guarantee (as {@code --guarantee} takes it, with its
 * {@code --checkpoint-interval}; null for the guarantee none), the values of the matrix's setting
 * axes ({@link SettingAxis}: by the name of the run option each sets, e.g. {@code keys=1000000}; empty
 * without such axes), in one repetition.
 */
public record Cell(
        String engine,
        String database,
        String pattern,
        int blobBytes,
        String access,
        String guarantee,
        String checkpointInterval,
        Map<String, String> settings,
        int repetition) {

    public static final String NO_GUARANTEE = Guarantee.NONE.cliName();

    public Cell {
        if (guarantee.equals(NO_GUARANTEE)) {
            checkpointInterval = null;
        }
        settings = settings == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    }

    /** A cell without setting axes. */
    public Cell(
            String engine,
            String database,
            String pattern,
            int blobBytes,
            String access,
            String guarantee,
            String checkpointInterval,
            int repetition) {
        this(engine, database, pattern, blobBytes, access, guarantee, checkpointInterval, Map.of(), repetition);
    }

    /** A cell without a guarantee, as the study ran every cell. */
    public Cell(String engine, String database, String pattern, int blobBytes, String access, int repetition) {
        this(engine, database, pattern, blobBytes, access, NO_GUARANTEE, null, repetition);
    }

    /** A cell of the study's access mode, sync, without a guarantee. */
    public Cell(String engine, String database, String pattern, int blobBytes, int repetition) {
        this(engine, database, pattern, blobBytes, AccessModeName.SYNC, repetition);
    }

    /** This cell without its guarantee: the baseline of what the guarantee costs. */
    public Cell withoutGuarantee() {
        return new Cell(engine, database, pattern, blobBytes, access, NO_GUARANTEE, null, settings, repetition);
    }

    /**
     * This cell as every engine, database and pattern can run it: without a guarantee, its keys
     * picked uniformly (a matrix leaves out a cell that only its guarantee or key distribution keeps
     * from running).
     */
    public Cell withoutVariants() {
        Map<String, String> uniform = new LinkedHashMap<>(settings);
        uniform.computeIfPresent(
                SettingAxis.KEY_DISTRIBUTIONS.runOption(), (name, value) -> KeyDistribution.UNIFORM.cliName());
        return new Cell(engine, database, pattern, blobBytes, access, NO_GUARANTEE, null, uniform, repetition);
    }

    /**
     * The cell's folder under the matrix folder, e.g. {@code flink/postgresql/update/10000/rep-1}, with
     * the access mode as a folder of its own unless it is sync ({@code .../10000/batch-100-linger-20ms/rep-1}),
     * the guarantee with its interval unless it is none ({@code .../10000/exactly-once-10s/rep-1}), and a
     * folder per setting axis ({@code .../10000/keys-1000000/parallelism-4/rep-1}).
     */
    public String id() {
        StringBuilder id = new StringBuilder(engine + "/" + database + "/" + pattern + "/" + blobBytes + "/");
        if (!access.equals(AccessModeName.SYNC)) {
            id.append(folderName(access)).append('/');
        }
        if (!guarantee.equals(NO_GUARANTEE)) {
            id.append(folderName(guarantee + "-" + checkpointInterval)).append('/');
        }
        settings.forEach(
                (name, value) -> id.append(folderName(name + "-" + value)).append('/'));
        return id.append("rep-").append(repetition).toString();
    }

    private static String folderName(String value) {
        return value.replaceAll("[^A-Za-z0-9]+", "-");
    }
}
