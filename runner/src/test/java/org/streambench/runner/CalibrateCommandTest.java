package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.Home;
import org.streambench.model.RunDocument.Calibration;
import org.streambench.runner.calibration.MachineCalibration;

/** bench calibrate: measures where it is told, keeps the figures, and refuses bad input in one line. */
class CalibrateCommandTest {

    @Test
    void measuresInTheGivenFolderAndKeepsTheFigures(@TempDir Path dir) {
        CliResult calibrated = CliResult.bench("calibrate", "--duration", "1s", "--dir", dir.toString());
        assertEquals(0, calibrated.code(), calibrated.toString());
        assertTrue(calibrated.out().contains("synced 8 KB writes/s"), calibrated.toString());
        Calibration kept =
                MachineCalibration.stored(MachineCalibration.file(Home.work())).orElseThrow();
        assertEquals(dir.toAbsolutePath().toString(), kept.folder());
        assertEquals(1, kept.seconds());
    }

    @Test
    void aDurationOutOfRangeOrAMissingFolderIsOneLineAndExit2(@TempDir Path dir) {
        for (String[] args : new String[][] {
            {"calibrate", "--duration", "0s"},
            {"calibrate", "--duration", "11m"},
            {"calibrate", "--duration", "soon"},
            {"calibrate", "--dir", dir.resolve("missing").toString()}
        }) {
            CliResult refused = CliResult.bench(args);
            assertEquals(2, refused.code(), refused.toString());
            assertEquals(1, refused.err().strip().lines().count(), refused.toString());
            assertFalse(refused.out().contains("measuring"), "nothing started: " + refused);
        }
    }
}
