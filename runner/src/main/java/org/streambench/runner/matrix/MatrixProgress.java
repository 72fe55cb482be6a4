package org.streambench.runner.matrix;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The matrix's progress bar: experiments done of the total, failed and left, elapsed time and ETA,
 * redrawn every second on its own line below the per-experiment lines. Without a bar target (output
 * not on a terminal) it only prints the lines.
 */
public final class MatrixProgress implements AutoCloseable {

    private static final int WIDTH = 100;
    private static final String CLEAR_LINE = "\r\033[K";

    private final ProgressBar bar;
    private final PrintStream barTarget;

    private MatrixProgress(ProgressBar bar, PrintStream barTarget) {
        this.bar = bar;
        this.barTarget = barTarget;
    }

    /**
     * A bar on {@code barTarget} (null: no bar) for a matrix of {@code total} experiments of which
     * {@code alreadyDone} were done before this invocation (a resumed matrix); the ETA counts only
     * the experiments run by this invocation.
     */
    public static MatrixProgress start(long total, long alreadyDone, PrintStream barTarget) {
        if (barTarget == null) {
            return new MatrixProgress(null, null);
        }
        ProgressBar bar = new ProgressBarBuilder()
                .setTaskName("matrix")
                .setInitialMax(total)
                .startsFrom(alreadyDone, Duration.ZERO)
                .setStyle(ProgressBarStyle.UNICODE_BLOCK)
                .setUpdateIntervalMillis(1000)
                .continuousUpdate()
                .setConsumer(new ConsoleProgressBarConsumer(barTarget, WIDTH))
                .build();
        return new MatrixProgress(bar, barTarget);
    }

    /** Standard error if both standard output and standard error are a terminal; null otherwise. */
    public static PrintStream terminal() {
        return isTerminal(1) && isTerminal(2) ? System.err : null;
    }

    private static boolean isTerminal(int fd) {
        try {
            String target =
                    Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException e) {
            return false; // no /proc: no bar
        }
    }

    /** Where the matrix stands now. */
    public void update(long ok, long failed, long left) {
        if (bar != null) {
            bar.stepTo(ok + failed);
            bar.setExtraMessage(String.format(Locale.ROOT, "ok %d, failed %d, left %d", ok, failed, left));
        }
    }

    /**
     * {@code console} for lines printed while the bar is shown: each line first clears the bar's
     * line, and the bar is redrawn below it within a second.
     */
    public PrintWriter above(PrintWriter console) {
        if (barTarget == null) {
            return console;
        }
        return new PrintWriter(
                new Writer() {
                    private boolean lineStart = true;

                    @Override
                    public void write(char[] chars, int offset, int length) {
                        for (int i = offset; i < offset + length; i++) {
                            if (lineStart) {
                                synchronized (barTarget) {
                                    barTarget.print(CLEAR_LINE);
                                    barTarget.flush();
                                }
                            }
                            console.write(chars[i]);
                            lineStart = chars[i] == '\n';
                        }
                    }

                    @Override
                    public void flush() {
                        console.flush();
                    }

                    @Override
                    public void close() {
                        console.flush();
                    }
                },
                true);
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
