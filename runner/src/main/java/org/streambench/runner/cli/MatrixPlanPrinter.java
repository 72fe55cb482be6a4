package org.streambench.runner.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.streambench.operators.ExperimentSpec;
import org.streambench.runner.capacity.CapacityInputs;
import org.streambench.runner.ceiling.CeilingBesideRun;
import org.streambench.runner.ceiling.CeilingRun;
import org.streambench.runner.ceiling.CeilingTools;
import org.streambench.runner.ceiling.MatrixCeilings;
import org.streambench.runner.matrix.Cell;
import org.streambench.runner.matrix.Journal;
import org.streambench.runner.matrix.MatrixCells;
import org.streambench.runner.matrix.MatrixPlan;
import org.streambench.runner.matrix.MatrixRunner;
import org.streambench.runner.matrix.SettingAxis;
import org.streambench.runner.matrix.TimeBudget;

/**
 * bench matrix's plan as {@code --dry-run} and a starting matrix print it: the axes, what each cell
 * runs with, the cells, the ceilings they need and the estimated wall time.
 */
final class MatrixPlanPrinter {

    /**
     * What the estimate depends on besides the cells: a steady warm-up, the metrics port, a cell's
     * overhead before any has run, the capacity search (null without --capacity), --ceiling and the
     * steps of a fill (--steps, 1 without it).
     */
    record Settings(
            boolean steadyWarmup,
            String metricsPort,
            int estimatedOverheadSeconds,
            MatrixCells.Capacity search,
            boolean ceiling,
            int fillSteps) {}

    private MatrixPlanPrinter() {}

    /** The plan and its estimated wall time; with the journal of a matrix under way, its measured overhead. */
    static void print(
            PrintWriter console,
            Settings settings,
            MatrixPlan plan,
            List<Cell> cells,
            List<ExperimentSpec> specs,
            Journal measured) {
        console.printf(
                Locale.ROOT,
                "engines %s x databases %s x patterns %s x BLOBs %s x access modes %s x %d repetition(s)%n",
                plan.engines(),
                plan.databases(),
                plan.patterns(),
                plan.blobs(),
                plan.accesses(),
                plan.repetitions());
        if (!plan.guarantees().equals(List.of(Cell.NO_GUARANTEE))) {
            console.printf(
                    Locale.ROOT,
                    "guarantees %s, checkpointing every %s (none: one cell without checkpoints)%n",
                    plan.guarantees(),
                    String.join(" or ", plan.checkpointIntervals()));
        }
        plan.settingAxes()
                .forEach((name, values) ->
                        console.printf(Locale.ROOT, "x %s %s (a setting axis)%n", name, String.join(" | ", values)));
        if (!specs.isEmpty()) {
            console.printf(
                    Locale.ROOT,
                    "each cell: warm-up %s, %d s measured, %s, %s, metrics on %s%n",
                    settings.steadyWarmup()
                            ? "until steady, at most " + specs.get(0).warmupSeconds() + " s"
                            : specs.get(0).warmupSeconds() + " s",
                    specs.get(0).durationSeconds(),
                    plan.settingAxes().containsKey(SettingAxis.KEYSPACES.runOption())
                            ? "keys per axis"
                            : String.format(
                                    Locale.ROOT, "%,d keys", specs.get(0).keys()),
                    plan.settingAxes().containsKey(SettingAxis.PARALLELISMS.runOption())
                            ? "parallelism per axis"
                            : "parallelism " + specs.get(0).parallelism(),
                    settings.metricsPort().trim().equals("0")
                            ? "any free port"
                            : "port " + settings.metricsPort().trim());
        }
        List<Double> overheads = measured == null ? List.of() : MatrixRunner.sortedOverheads(measured);
        double overhead = overheads.isEmpty() ? settings.estimatedOverheadSeconds() : MatrixRunner.median(overheads);
        MatrixCells.Capacity search = settings.search();
        if (search != null && !specs.isEmpty()) {
            console.printf(
                    Locale.ROOT,
                    "each cell a capacity search at parallelism %d, objective %s: a probe and at most %d steps or %s,"
                            + " each step a run as above at a fixed rate%n",
                    specs.get(0).parallelism(),
                    search.objective().describe(),
                    search.bounds().maxSteps(),
                    TimeBudget.human(
                            TimeUnit.NANOSECONDS.toSeconds(search.bounds().maxNanos())));
        }
        if (settings.fillSteps() > 1) {
            console.printf(
                    Locale.ROOT,
                    "each cell a fill of %d steps on one table, each step a run as above%n",
                    settings.fillSteps());
        }
        long seconds = 0;
        for (int i = 0; i < cells.size(); i++) {
            ExperimentSpec spec = specs.get(i);
            console.printf(Locale.ROOT, "  %3d. %s%n", i + 1, cells.get(i).id());
            long step = Math.round(spec.warmupSeconds() + spec.durationSeconds() + overhead);
            seconds += search == null
                    ? step * settings.fillSteps()
                    : CapacityInputs.longestSearchSeconds(search.bounds(), step);
        }
        if (settings.ceiling() && !specs.isEmpty()) {
            seconds += printCeilings(console, cells, specs);
        }
        console.printf(
                Locale.ROOT,
                "%d experiment%s; estimated wall time%s %s (the longest warm-up + measured + %s per run "
                        + "for server start, reset, prefill, job start, stop and verification)%n",
                cells.size(),
                cells.size() == 1 ? "" : "s",
                search == null ? "" : " at most",
                TimeBudget.human(seconds),
                overheads.isEmpty()
                        ? "about " + settings.estimatedOverheadSeconds() + " s (more with large key spaces)"
                        : String.format(
                                Locale.ROOT,
                                "%.0f s (the median overhead of this matrix's %d finished experiments)",
                                overhead,
                                overheads.size()));
    }

    /** Prints the ceilings the cells need; returns their estimated seconds. */
    private static long printCeilings(PrintWriter console, List<Cell> cells, List<ExperimentSpec> specs) {
        List<String> keys = specs.stream()
                .filter(spec -> CeilingTools.toolFor(spec).isPresent())
                .map(MatrixCeilings::key)
                .distinct()
                .toList();
        List<String> refused = specs.stream()
                .filter(spec -> CeilingTools.toolOf(spec.database()).isPresent()
                        && CeilingTools.toolFor(spec).isEmpty())
                .map(spec -> spec.database() + " " + CeilingRun.label(spec.access()) + " ("
                        + CeilingRun.refusal(
                                CeilingTools.toolOf(spec.database()).orElseThrow(), CeilingBesideRun.requestOf(spec))
                        + ")")
                .distinct()
                .toList();
        List<String> withTool =
                CeilingTools.withCeilingTool(cells.stream().map(Cell::database).toList());
        List<String> without = cells.stream()
                .map(Cell::database)
                .distinct()
                .filter(database -> !withTool.contains(database))
                .toList();
        ExperimentSpec first = specs.get(0);
        console.printf(
                Locale.ROOT,
                "ceilings: %d (the database's own tool once per database x pattern x BLOB x access mode, %d thread%s, %d s each, into"
                        + " DIR/%s/, unless an earlier run of this matrix measured it): %s%s%n",
                keys.size(),
                first.parallelism(),
                first.parallelism() == 1 ? "" : "s",
                first.durationSeconds(),
                MatrixCeilings.FOLDER,
                String.join(
                        ", ",
                        withTool.stream()
                                .map(database -> database + " ("
                                        + CeilingTools.toolOf(database)
                                                .orElseThrow()
                                                .name() + ")")
                                .toList()),
                without.isEmpty() ? "" : "; without a tool: " + String.join(", ", without));
        if (!refused.isEmpty()) {
            console.println(
                    "no ceiling for these cells' access mode (they run without one): " + String.join("; ", refused));
        }
        return (long) keys.size() * (first.durationSeconds() + TimeBudget.ESTIMATED_OVERHEAD_SECONDS);
    }
}
