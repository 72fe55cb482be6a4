package org.streambench.runner.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.model.RunDocument.Calibration;
import org.streambench.runner.monitor.DeviceUsage;

/** The machine's limits: synced writes that reach the device, figures that agree with each other, kept per host. */
class MachineCalibrationTest {

    @Test
    void everySyncedWriteReachesTheDevice(@TempDir Path dir) throws Exception {
        String device = DeviceUsage.holding(dir).orElse(null);
        Assumptions.assumeTrue(device != null, "a folder on a block device (not a tmpfs)");
        long before = DeviceUsage.of(device).orElseThrow().writeBytes();
        long[] writes = MachineCalibration.syncedWrites(dir.resolve("probe"), 0.3);
        long written = DeviceUsage.of(device).orElseThrow().writeBytes() - before;
        // without the sync the page cache would take all the writes to the same 8 KB as one
        assertTrue(
                written >= writes.length * 4096L,
                writes.length + " synced writes, but the device wrote only " + written + " bytes");
        double total = Arrays.stream(writes).sum() / 1e9;
        assertTrue(total >= 0.3 && total < 0.6, "the writes' times fill the 0.3 s measured: " + total);
    }

    @Test
    void theFiguresOfAMeasurementAgree(@TempDir Path dir) throws Exception {
        Calibration c = MachineCalibration.measure(dir, 1);
        assertTrue(c.syncedWritesPerSecond() > 0, c.toString());
        assertTrue(c.syncedWriteP50Micros() <= c.syncedWriteP99Micros(), c.toString());
        // one write at a time: the rate cannot beat what the median write allows by much
        assertTrue(c.syncedWritesPerSecond() <= 2 * 1e6 / Math.max(1, c.syncedWriteP50Micros()), c.toString());
        assertTrue(c.sequentialWriteMBps() > 0 && c.sortedMillionsPerSecond() > 0, c.toString());
        assertEquals(dir.toAbsolutePath().toString(), c.folder());
        assertEquals(MachineCalibration.host(), c.host());
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "its probe files are deleted");
        }
    }

    @Test
    void aKeptCalibrationIsUsedOnItsOwnHostOnly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("calibration.json");
        Calibration here = new Calibration(
                "2026-11-29T00:00:00Z", MachineCalibration.host(), "/w", "vda", 5, 9000, 100, 300, 800, 1500);
        MachineCalibration.store(here, file);
        assertEquals(Optional.of(here), MachineCalibration.stored(file));
        MachineCalibration.store(
                new Calibration("2026-11-29T00:00:00Z", "elsewhere", "/w", "vda", 5, 9000, 100, 300, 800, 1500), file);
        assertEquals(Optional.empty(), MachineCalibration.stored(file), "another machine's limits are not this one's");
        Files.writeString(file, "{not json");
        assertEquals(Optional.empty(), MachineCalibration.stored(file), "an unreadable file is measured again");
    }

    @Test
    void aRunWithoutACalibrationMeasuresOnceAndKeepsIt(@TempDir Path work) {
        String previous = System.getProperty("streambench.calibration");
        System.clearProperty("streambench.calibration");
        try {
            StringWriter said = new StringWriter();
            Calibration first = MachineCalibration.current(work, new PrintWriter(said, true));
            assertTrue(said.toString().startsWith("calibrated this machine"), said.toString());
            assertTrue(Files.isRegularFile(work.resolve("calibration.json")));
            StringWriter again = new StringWriter();
            assertEquals(first, MachineCalibration.current(work, new PrintWriter(again, true)));
            assertFalse(again.toString().contains("calibrated"), "the kept one is used: " + again);
        } finally {
            if (previous != null) {
                System.setProperty("streambench.calibration", previous);
            }
        }
    }
}
