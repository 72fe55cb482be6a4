package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench matrix --time-budget}: the plan it gives, and the inputs it refuses (no server, no job). */
class MatrixTimeBudgetTest {

    @Test
    void theStudysMatrixInFourHoursGetsTheWindowThatFits(@TempDir Path tmp) {
        String plan = plan(tmp.resolve("matrix"), "--time-budget", "4h", "--warmup", "steady:15s");
        assertTrue(plan.contains("--time-budget 4h: 45 s measured per experiment"), plan);
        assertTrue(plan.contains("each cell: warm-up until steady, at most 15 s, 45 s measured"), plan);
        assertTrue(plan.contains("180 experiments; estimated wall time 4 h 00 min"), plan);
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
        String local = plan(out, "--time-budget", "9000", "--warmup", "steady:15s");
        assertTrue(local.contains("--time-budget 9000: 15 s measured per experiment"), local);
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

    /** What {@code bench matrix --dry-run} prints: it succeeds and writes nothing. */
    private static String plan(Path out, String... options) {
        CliResult plan = matrix(
                out, Stream.concat(Stream.of(options), Stream.of("--dry-run")).toArray(String[]::new));
        assertEquals(0, plan.code(), plan.toString());
        assertFalse(Files.exists(out), "a dry run writes nothing");
        return plan.out();
    }

    private static CliResult matrix(Path out, String... options) {
        List<String> args = new ArrayList<>(List.of("matrix"));
        args.addAll(List.of(options));
        args.addAll(List.of("--out", out.toString()));
        return CliResult.bench(args.toArray(String[]::new));
    }

    private static void assertRefused(Path out, String expected, String... options) {
        CliResult run = matrix(out, options);
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains(expected), run.err());
        assertEquals(1, run.err().strip().lines().count(), "one line: " + run.err());
        assertFalse(Files.exists(out), "nothing written");
    }
}
