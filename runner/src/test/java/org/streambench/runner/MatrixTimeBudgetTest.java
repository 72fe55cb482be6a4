package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench matrix --time-budget}: the plan it gives, and the inputs it refuses (no server, no job). */
class MatrixTimeBudgetTest {

    @Test
    void theStudysMatrixInFourHoursGetsTheWindowThatFits(@TempDir Path tmp) {
        Path out = tmp.resolve("matrix");
        CliResult plan = dryRun(out, "--time-budget", "4h", "--warmup", "steady:15s");
        assertEquals(0, plan.code(), plan.toString());
        assertTrue(plan.out().contains("--time-budget 4h: 45 s measured per experiment"), plan.out());
        assertTrue(plan.out().contains("each cell: warm-up until steady, at most 15 s, 45 s measured"), plan.out());
        assertTrue(plan.out().contains("180 experiments; estimated wall time 4 h 00 min"), plan.out());
        assertFalse(Files.exists(out), "a dry run writes nothing");
    }

    @Test
    void aBudgetTooSmallOrGivenWithADurationIsOneLineAndWritesNothing(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("matrix");
        assertRefused(
                out, "--time-budget 1 h 00 min leaves 20 s per experiment for 180 experiments", "--time-budget", "1h");
        assertRefused(out, "give --duration or --time-budget, not both", "--time-budget", "4h", "--duration", "30s");
        assertRefused(out, "--time-budget 'soon' is not a duration", "--time-budget", "soon");
        Path spec = Files.writeString(tmp.resolve("matrix.yaml"), "duration: 30s\ntime-budget: 4h\n");
        assertRefused(out, "give --duration or --time-budget, not both", "--spec", spec.toString());
    }

    @Test
    void onYarnACellIsTakenToCostMoreBesidesItsWindow(@TempDir Path tmp) {
        // 180 x 50 s: 50 - 15 s of warm-up - 20 s of overhead leaves 15 s measured locally; on YARN (35 s) none
        Path out = tmp.resolve("matrix");
        CliResult local = dryRun(out, "--time-budget", "9000", "--warmup", "steady:15s");
        assertEquals(0, local.code(), local.toString());
        assertTrue(local.out().contains("--time-budget 9000: 15 s measured per experiment"), local.out());
        assertRefused(
                out,
                "--time-budget 2 h 30 min leaves 50 s per experiment for 180 experiments, less than a warm-up of at"
                        + " most 15 s + 10 s measured + about 35 s of overhead; give at least 3 h 00 min",
                "--time-budget",
                "9000",
                "--warmup",
                "steady:15s",
                "--cluster",
                "yarn",
                "--dry-run");
    }

    private static CliResult dryRun(Path out, String... options) {
        List<String> args = new ArrayList<>(List.of("matrix"));
        args.addAll(List.of(options));
        args.addAll(List.of("--dry-run", "--out", out.toString()));
        return CliResult.bench(args.toArray(String[]::new));
    }

    private static void assertRefused(Path out, String expected, String... options) {
        String[] args = new String[options.length + 3];
        args[0] = "matrix";
        System.arraycopy(options, 0, args, 1, options.length);
        args[options.length + 1] = "--out";
        args[options.length + 2] = out.toString();
        CliResult run = CliResult.bench(args);
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains(expected), run.err());
        assertEquals(1, run.err().strip().lines().count(), "one line: " + run.err());
        assertFalse(Files.exists(out), "nothing written");
    }
}
