package org.streambench.runner.matrix;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.streambench.db.CeilingTool;
import org.streambench.model.CapacityDocument;
import org.streambench.operators.ExperimentSpec;
import org.streambench.runner.capacity.CapacityRun;
import org.streambench.runner.capacity.CapacitySearch;
import org.streambench.runner.ceiling.CeilingTools;
import org.streambench.runner.ceiling.MatrixCeilings;
import org.streambench.runner.experiment.ConnectionOptions;
import org.streambench.runner.experiment.DatabaseSession;
import org.streambench.runner.experiment.ExperimentRunner;
import org.streambench.runner.experiment.FillSteps;
import org.streambench.runner.results.RunResult;

/**
 * What a matrix's cell is: a full bench run of its spec against the local server (or --db-url) of
 * its database group, with the cell's --db-settings value added; with --ceiling, then its
 * database's ceiling; with --capacity, a capacity search at the matrix's parallelism instead; with
 * --steps, a fill of that many runs on one table.
 */
public final class MatrixCells implements MatrixRunner.Cells<DatabaseSession> {

    /** --capacity's objective and bounds. */
    public record Capacity(CapacitySearch.Objective objective, CapacitySearch.Bounds bounds) {}

    private final ConnectionOptions connection;
    private final Function<Cell, ExperimentSpec> specOf;
    private final Function<PrintWriter, ExperimentRunner> runner;
    private final boolean steadyWarmup;
    private final MatrixCeilings ceilings;
    private final Capacity capacity;
    private final int fillSteps;

    /** {@code ceilings} and {@code capacity} null without --ceiling and --capacity; {@code fillSteps} 1 without --steps. */
    public MatrixCells(
            ConnectionOptions connection,
            Function<Cell, ExperimentSpec> specOf,
            Function<PrintWriter, ExperimentRunner> runner,
            boolean steadyWarmup,
            MatrixCeilings ceilings,
            Capacity capacity,
            int fillSteps) {
        this.connection = connection;
        this.specOf = specOf;
        this.runner = runner;
        this.steadyWarmup = steadyWarmup;
        this.ceilings = ceilings;
        this.capacity = capacity;
        this.fillSteps = fillSteps;
    }

    @Override
    public DatabaseSession openDatabase(String database, PrintWriter console) {
        return DatabaseSession.open(database, connection, console);
    }

    @Override
    public MatrixRunner.Outcome run(Cell cell, DatabaseSession groupSession, Path dir, PrintWriter log)
            throws Exception {
        ExperimentSpec spec = specOf.apply(cell);
        return inSessionOf(cell, groupSession, session -> {
            if (capacity != null) {
                return capacityOf(cell, spec, session, dir, log);
            }
            if (fillSteps > 1) {
                return fill(spec, session, dir, log);
            }
            RunResult result =
                    runner.apply(log).run(spec.withDatabaseSettings(session.settings()), steadyWarmup, session, dir);
            Optional<CeilingTool> tool = CeilingTools.toolFor(spec);
            if (ceilings != null && result.passed() && tool.isPresent()) {
                ceilings.addTo(dir, spec, result, tool.get(), session, log);
            }
            return MatrixRunner.Outcome.of(result, dir);
        });
    }

    /** A cell of --steps: the fill's steps into the cell's folder; it passes if every step ran and verified, its figures the last step's. */
    private MatrixRunner.Outcome fill(ExperimentSpec spec, DatabaseSession session, Path dir, PrintWriter log)
            throws Exception {
        List<RunResult> results = FillSteps.run(
                runner.apply(log),
                spec.withDatabaseSettings(session.settings()),
                steadyWarmup,
                session,
                dir,
                fillSteps,
                connection,
                log);
        MatrixRunner.Outcome last = MatrixRunner.Outcome.of(
                results.get(results.size() - 1), dir.resolve(FillSteps.STEP_FOLDER + results.size()));
        boolean passed = FillSteps.passed(results, fillSteps);
        return new MatrixRunner.Outcome(
                passed,
                passed
                        ? null
                        : Objects.requireNonNullElse(last.error(), "the fill stopped after step " + results.size()),
                last.throughput(),
                last.readLatencyMicros(),
                last.measuredSeconds(),
                last.phaseSeconds(),
                String.format(Locale.ROOT, "fill of %d steps, step %d: %s", fillSteps, results.size(), last.summary()));
    }

    /** What a cell's run needs of its database: the group's session, or one with the cell's --db-settings value added. */
    @FunctionalInterface
    private interface SessionWork<T> {
        T run(DatabaseSession session) throws Exception;
    }

    private static <T> T inSessionOf(Cell cell, DatabaseSession groupSession, SessionWork<T> work) throws Exception {
        String added = cell.settings().get(SettingAxis.DB_SETTINGS.runOption());
        if (added == null) {
            return work.run(groupSession);
        }
        try (DatabaseSession session = groupSession.withAddedSettings(SettingAxis.databaseSettings(added))) {
            return work.run(session);
        }
    }

    /** A cell of --capacity: the search at the matrix's parallelism, into the cell's folder; it passes if it found a capacity. */
    private MatrixRunner.Outcome capacityOf(
            Cell cell, ExperimentSpec spec, DatabaseSession session, Path dir, PrintWriter log) throws Exception {
        CapacityDocument.Search found = CapacityRun.search(
                        spec.withDatabaseSettings(session.settings()),
                        List.of(spec.parallelism()),
                        capacity.objective(),
                        capacity.bounds(),
                        dir,
                        CapacityRun.inFolders(runner, steadyWarmup, session, log),
                        log)
                .get(0);
        String what = cell.id() + " (" + capacity.objective().brief() + ")";
        if (found.capacity() == null) {
            String why = found.probeThroughput() > 0
                    ? "no rate met the objective (" + capacity.objective().brief() + "): " + found.stopReason()
                    : found.stopReason();
            return new MatrixRunner.Outcome(
                    false, why, null, null, null, Map.of("search", found.wallSeconds()), what + ": FAILED: " + why);
        }
        return new MatrixRunner.Outcome(
                true,
                null,
                found.capacity(),
                null,
                null,
                Map.of("search", found.wallSeconds()),
                String.format(
                        Locale.ROOT,
                        "%s: capacity %,.0f records/s (%.0f %% of the unthrottled %,.0f), %d steps -> %s",
                        what,
                        found.capacity(),
                        100 * found.capacity() / found.probeThroughput(),
                        found.probeThroughput(),
                        found.steps().size(),
                        dir.resolve(CapacityDocument.FILE)));
    }
}
