package org.streambench.runner.ceiling;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.streambench.db.CeilingTool;
import org.streambench.model.CeilingDocument;
import org.streambench.model.CeilingJson;
import org.streambench.model.RunDocument;
import org.streambench.operators.ExperimentSpec;
import org.streambench.runner.experiment.DatabaseSession;
import org.streambench.runner.results.ResultFiles;
import org.streambench.runner.results.RunResult;

/**
 * The database's ceiling beside a pipeline's run ({@code bench run --ceiling}, {@code bench matrix
 * --ceiling}): the tool on the run's server with the run's pattern, BLOB, keys, seed and measured
 * window and access mode, one client thread per processing instance; recorded in the run's result.json with the
 * pipeline's share of it.
 */
public final class CeilingBesideRun {

    private CeilingBesideRun() {}

    /** Measures the ceiling for {@code spec} into {@code ceilingDir}/ceiling.json (written whatever its status). */
    public static CeilingDocument measure(
            CeilingTool tool, ExperimentSpec spec, DatabaseSession session, Path ceilingDir, PrintWriter out)
            throws IOException, InterruptedException {
        Files.createDirectories(ceilingDir);
        CeilingDocument document = CeilingRun.run(requestOf(spec), spec.database(), tool, session, ceilingDir, out);
        write(document, ceilingDir);
        return document;
    }

    /** The ceiling of a run: its pattern, BLOB, keys, seed, window and access mode, a client per processing instance. */
    public static CeilingRun.Request requestOf(ExperimentSpec spec) {
        return new CeilingRun.Request(
                spec.pattern(),
                spec.blobBytes(),
                spec.keys(),
                spec.parallelism(),
                spec.access(),
                spec.durationSeconds(),
                spec.seed());
    }

    /** Adds {@code ceiling} to the run's result.json: its tool, throughput, status, and the run's ratio to it. */
    public static void record(Path runDir, CeilingDocument ceiling, RunResult result, String folder)
            throws IOException {
        ResultFiles.addCeiling(
                runDir,
                new RunDocument.Ceiling(
                        ceiling.tool().name(),
                        ceiling.threads(),
                        ceiling.result() == null ? null : ceiling.result().throughput(),
                        ratio(result, ceiling),
                        ceiling.status(),
                        ceiling.error(),
                        folder));
    }

    /** Adds a ceiling that failed before it had a result (e.g. its prefill failed) to the run's result.json. */
    public static void recordFailure(Path runDir, String tool, int threads, String error, String folder)
            throws IOException {
        ResultFiles.addCeiling(runDir, new RunDocument.Ceiling(tool, threads, null, null, "failed", error, folder));
    }

    /** The pipeline's mean throughput over the tool's, if the tool's run was verified. */
    public static Double ratio(RunResult result, CeilingDocument ceiling) {
        if (!ceiling.status().equals("ok")
                || ceiling.result() == null
                || ceiling.result().throughput() <= 0
                || result.throughput() == null) {
            return null;
        }
        return result.throughput().mean() / ceiling.result().throughput();
    }

    /** Writes {@code document} as {@code dir/ceiling.json}, atomically. */
    public static void write(CeilingDocument document, Path dir) throws IOException {
        Path tmp = dir.resolve(CeilingDocument.FILE + ".tmp");
        Files.writeString(tmp, CeilingJson.write(document));
        Files.move(tmp, dir.resolve(CeilingDocument.FILE), StandardCopyOption.ATOMIC_MOVE);
    }
}
