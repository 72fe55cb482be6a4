package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.run;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report as a reader sees it: headless Chromium (./bench test installs it) loads index.html from disk. */
@Tag("integration")
class ReportInBrowserTest {

    @Test
    void theReportRendersItsFiguresAndTablesOfflineInABrowser(@TempDir Path dir) throws Exception {
        for (String engine : List.of("flink", "spark", "apex")) {
            for (String pattern : List.of("read", "insert")) {
                for (int blob : List.of(1, 10000)) {
                    run(
                            dir,
                            engine,
                            "postgresql",
                            pattern,
                            blob,
                            1,
                            "ok",
                            1000 + engine.length() * 100 + blob / 100.0,
                            pattern.equals("read") ? 90.0 + engine.length() : null);
                    run(
                            dir,
                            engine,
                            "mongodb",
                            pattern,
                            blob,
                            1,
                            engine.equals("apex") && blob == 1 ? "failed" : "ok",
                            700,
                            pattern.equals("read") ? 120.0 : null,
                            "an emulator",
                            "default");
                }
            }
        }
        Path index = Report.of(dir).write();
        Path out = index.getParent();
        List<String> figures = List.of(
                "throughput-read-1.png",
                "throughput-read-10000.png",
                "throughput-insert-1.png",
                "throughput-insert-10000.png",
                "latency-read-1.png",
                "latency-read-10000.png");
        for (String figure : figures) {
            BufferedImage image = ImageIO.read(out.resolve(figure).toFile());
            assertTrue(image.getWidth() > 300 && colours(image) > 10, figure + " is a picture, not a blank");
        }
        List<String> csv = Files.readAllLines(out.resolve("results.csv"));
        assertEquals(1 + 24, csv.size(), "a header and one row per run");

        String dom = chromium(List.of(
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--virtual-time-budget=5000",
                "--dump-dom",
                index.toUri().toString()));
        assertTrue(
                dom.contains("data-figures-rendered=\"" + figures.size() + "\""), "every figure loaded: " + tag(dom));
        assertTrue(dom.contains("data-figures-broken=\"0\""), tag(dom));
        for (String heading : List.of("Table 1", "Table 2", "Table 3", "Table 4", "Every cell")) {
            assertTrue(dom.contains(heading), heading);
        }
        assertTrue(dom.contains("FAILED: failed (it broke)"), "a failed cell is shown as failed");
        assertTrue(dom.contains("Measured against an emulator"), "emulated numbers are marked");
        assertTrue(
                dom.contains("cassandra / flink 97,300 records/s"), "the study's values are shown beside this run's");

        Path screenshot = out.resolve("screenshot.png");
        chromium(List.of(
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--window-size=1400,2200",
                "--screenshot=" + screenshot,
                index.toUri().toString()));
        BufferedImage shot = ImageIO.read(screenshot.toFile());
        assertEquals(1400, shot.getWidth());
        assertTrue(colours(shot) > 50, "the screenshot shows a rendered page");
    }

    @Test
    void aFolderWithoutResultsIsRefused(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Report.of(dir));
        assertTrue(e.getMessage().contains("holds no result.json"), e.getMessage());
    }

    private static String tag(String dom) {
        int body = dom.indexOf("<body");
        return body < 0 ? dom : dom.substring(body, Math.min(dom.length(), body + 200));
    }

    private static int colours(BufferedImage image) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                seen.add(image.getRGB(x, y));
            }
        }
        return seen.size();
    }

    private static String chromium(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(90, TimeUnit.SECONDS), "chromium ended");
        assertEquals(0, process.exitValue(), String.join(" ", command));
        return new String(output, StandardCharsets.UTF_8);
    }
}
