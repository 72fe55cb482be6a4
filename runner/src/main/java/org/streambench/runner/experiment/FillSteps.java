package org.streambench.runner.experiment;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import org.streambench.generator.Pattern;
import org.streambench.local.UserError;
import org.streambench.operators.ExperimentSpec;
import org.streambench.runner.results.RunResult;
import org.streambench.runner.results.Summary;

/**
 * A fill-level run ({@code bench run --steps N}), as the IoT database comparison ran its insert
 * test: the insert experiment N times on one table, reset before the first step only, so each step
 * inserts into what the steps before it left. Each step is a full, verified run in {@code
 * DIR/step-K} whose result.json says how many rows the table held when it started; the fill stops
 * at the first step that fails.
 */
public final class FillSteps {

    public static final String STEP_FOLDER = "step-";

    private FillSteps() {}

    /** --steps as bench run and bench matrix take it: 1 (one run on an empty table) when not given. */
    public static int parse(String steps) {
        return steps == null ? 1 : Inputs.positiveInt("--steps", steps, " (the steps of the fill, e.g. 5)");
    }

    /** Whether the fill ran all its {@code steps} and each verified. */
    public static boolean passed(List<RunResult> results, int steps) {
        return results.size() == steps && results.stream().allMatch(RunResult::passed);
    }

    /** Checked before anything starts: an insert run, keys of its own per step, and, where the steps' rows are known, room for them all. */
    public static void check(ExperimentSpec spec, int steps, boolean runTokenGiven, ConnectionOptions connection)
            throws IOException {
        if (spec.pattern() != Pattern.INSERT) {
            throw new UserError("--steps fills the table step by step; it goes with --pattern insert, not "
                    + spec.pattern().cliName());
        }
        if (runTokenGiven) {
            throw new UserError("--run-token fixes the new keys of one run; each step of --steps takes its own");
        }
        OptionalLong perStep = rowsPerStep(spec);
        if (perStep.isPresent()) {
            DiskSpace.requireFor(
                    spec,
                    connection,
                    perStep.getAsLong() * steps,
                    String.format(
                            Locale.ROOT,
                            "--steps %d of about %,d rows of %d bytes",
                            steps,
                            perStep.getAsLong(),
                            spec.blobBytes()),
                    "the fill",
                    "lower --steps, --records or --rate");
        }
    }

    /** The rows a step inserts, when the spec bounds them: --records, or --rate over the warm-up (at most) and the measured window. */
    static OptionalLong rowsPerStep(ExperimentSpec spec) {
        if (spec.bounded()) {
            return OptionalLong.of(spec.recordsPerGenerator() * spec.generatorParallelism());
        }
        if (spec.rate() > 0) {
            return OptionalLong.of((long) Math.ceil(spec.rate() * (spec.warmupSeconds() + spec.durationSeconds())));
        }
        return OptionalLong.empty();
    }

    /**
     * Runs the steps into {@code dir}, printing each step's summary; an unthrottled, timed fill checks
     * before each further step that the rows the last one inserted fit the disk as often as steps are
     * left, and stops saying so when they do not. Returns the steps' results, the last failed if one did.
     */
    public static List<RunResult> run(
            ExperimentRunner runner,
            ExperimentSpec spec,
            boolean steadyWarmup,
            DatabaseSession session,
            Path dir,
            int steps,
            ConnectionOptions connection,
            PrintWriter console)
            throws IOException, InterruptedException {
        List<RunResult> results = new ArrayList<>();
        for (int step = 1; step <= steps; step++) {
            if (step > 1 && rowsPerStep(spec).isEmpty()) {
                long inserted = results.get(results.size() - 1).report().totalProcessed();
                try {
                    DiskSpace.requireFor(
                            spec,
                            connection,
                            inserted * (steps - step + 1),
                            String.format(
                                    Locale.ROOT,
                                    "%d more steps of about %,d rows (as many as step %d inserted)",
                                    steps - step + 1,
                                    inserted,
                                    step - 1),
                            "the fill",
                            "lower --steps or --duration");
                } catch (UserError noRoom) {
                    console.println("fill stopped before step " + step + ": " + noRoom.getMessage());
                    return results;
                }
            }
            console.printf(Locale.ROOT, "fill step %d of %d%n", step, steps);
            Path stepDir = Files.createDirectories(dir.resolve(STEP_FOLDER + step));
            RunResult result = runner.runStep(spec, steadyWarmup, session, stepDir, step, steps);
            results.add(result);
            console.println(Summary.of(result, stepDir));
            if (!result.passed()) {
                console.printf(Locale.ROOT, "fill stopped after step %d of %d: it failed%n", step, steps);
                break;
            }
        }
        return results;
    }
}
