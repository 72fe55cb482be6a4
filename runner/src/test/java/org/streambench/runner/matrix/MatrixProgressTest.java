package org.streambench.runner.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MatrixProgressTest {

    @Test
    void theBarShowsDoneOfTotalFailedAndLeft() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream terminal = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        MatrixProgress progress = MatrixProgress.start(180, 72, terminal);
        progress.update(73, 1, 106);
        progress.close();
        String shown = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(shown.contains("74/180"), shown);
        assertTrue(shown.contains("ok 73, failed 1, left 106"), shown);
        assertTrue(shown.contains("matrix"), shown);
    }

    @Test
    void aLinePrintedWhileTheBarIsShownClearsTheBarsLineFirst() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream terminal = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        StringWriter lines = new StringWriter();
        MatrixProgress progress = MatrixProgress.start(4, 0, terminal);
        int before = bytes.size();
        PrintWriter above = progress.above(new PrintWriter(lines));
        above.println("[1/4] flink x postgresql");
        above.println("[2/4] spark x postgresql");
        progress.close();
        assertEquals(
                "[1/4] flink x postgresql" + System.lineSeparator() + "[2/4] spark x postgresql"
                        + System.lineSeparator(),
                lines.toString());
        String bar = bytes.toString(StandardCharsets.UTF_8).substring(before);
        assertTrue(bar.split("\033\\[K", -1).length - 1 >= 2, "one clear per line: " + bar);
    }

    @Test
    void withoutATerminalThereIsNoBarAndLinesGoStraightThrough() {
        MatrixProgress progress = MatrixProgress.start(4, 0, null);
        PrintWriter console = new PrintWriter(new StringWriter());
        assertSame(console, progress.above(console));
        progress.update(1, 0, 3);
        progress.close();
    }
}
