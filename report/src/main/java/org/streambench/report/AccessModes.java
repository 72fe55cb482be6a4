package org.streambench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.streambench.model.AccessModeName;

/**
 * The report's section on access modes, when the runs used more than one: for each pattern x BLOB
 * size a figure of throughput by mode per database (each database by its fastest engine) and of the
 * records' end-to-end p99, and a recommendation table: the best database x engine x mode by
 * throughput, with its p99 beside it. Only ranked databases take part (no noop, no emulator unless asked).
 */
final class AccessModes {

    private AccessModes() {}

    static void html(
            StringBuilder h,
            Path out,
            Map<Cell.Key, Cell> cells,
            List<String> engines,
            List<String> databases,
            List<String> patterns,
            List<Integer> blobs,
            List<String> modes)
            throws IOException {
        h.append("<h2>Access modes: how the pipeline writes</h2>\n<p>Modes: ")
                .append(Html.esc(String.join(", ", modes)))
                .append(". Tables 1-4 and the figures above are of the sync runs (the study's mode). Each bar: a")
                .append(" database's fastest engine in that mode.</p>\n");
        h.append("<table><thead><tr><th class=\"l\">pattern</th><th>BLOB</th><th class=\"l\">best database / engine /")
                .append(" mode</th><th>throughput (records/s)</th><th>end-to-end p99 (µs)</th><th class=\"l\">best")
                .append(" sync</th><th>gain over sync</th></tr></thead><tbody>");
        for (String pattern : patterns) {
            for (int blob : blobs) {
                Optional<Cell> best = best(cells, engines, databases, pattern, blob, modes);
                Optional<Cell> bestSync = best(cells, engines, databases, pattern, blob, List.of(AccessModeName.SYNC));
                if (best.isEmpty()) {
                    continue;
                }
                Cell b = best.get();
                h.append("<tr><td class=\"l\">")
                        .append(Html.esc(pattern))
                        .append("</td><td>")
                        .append(blob)
                        .append("</td><td class=\"l\">")
                        .append(Html.esc(b.key().database() + " / " + b.key().engine() + " / "
                                + b.key().access()))
                        .append("</td><td>")
                        .append(String.format(Locale.ROOT, "%,.0f", b.throughput()))
                        .append(
                                b.throughputHalf() > 0
                                        ? String.format(Locale.ROOT, " ± %,.0f", b.throughputHalf())
                                        : "")
                        .append("</td><td>")
                        .append(b.endToEndP99()
                                .map(v -> String.format(Locale.ROOT, "%,.0f", v))
                                .orElse(""))
                        .append("</td><td class=\"l\">")
                        .append(bestSync.map(c -> Html.esc(c.key().database() + " / "
                                                + c.key().engine()) + " "
                                        + String.format(Locale.ROOT, "%,.0f", c.throughput()))
                                .orElse(""))
                        .append("</td><td>")
                        .append(bestSync.map(c -> String.format(Locale.ROOT, "%.1fx", b.throughput() / c.throughput()))
                                .orElse(""))
                        .append("</td></tr>");
            }
        }
        h.append("</tbody></table>\n<div class=\"figs\">");
        for (String pattern : patterns) {
            for (int blob : blobs) {
                String throughput = Charts.byMode(
                        out,
                        "Throughput by access mode, " + pattern + ", " + blob + " B",
                        "records/s",
                        "modes-throughput-" + pattern + "-" + blob,
                        databases,
                        modes,
                        (database, mode) -> best(cells, engines, List.of(database), pattern, blob, List.of(mode))
                                .map(Cell::throughput)
                                .orElse(0.0));
                String latency = Charts.byMode(
                        out,
                        "End-to-end p99 by access mode, " + pattern + ", " + blob + " B",
                        "microseconds",
                        "modes-p99-" + pattern + "-" + blob,
                        databases,
                        modes,
                        (database, mode) -> best(cells, engines, List.of(database), pattern, blob, List.of(mode))
                                .flatMap(Cell::endToEndP99)
                                .orElse(0.0));
                for (String png : List.of(throughput, latency)) {
                    h.append("<img alt=\"")
                            .append(png)
                            .append("\" src=\"")
                            .append(png)
                            .append("\">");
                }
            }
        }
        h.append("</div>\n");
    }

    /** The cell of the highest throughput among these databases and modes (ok cells of any engine). */
    private static Optional<Cell> best(
            Map<Cell.Key, Cell> cells,
            List<String> engines,
            List<String> databases,
            String pattern,
            int blob,
            List<String> modes) {
        List<Cell> candidates = new ArrayList<>();
        for (String database : databases) {
            for (String engine : engines) {
                for (String mode : modes) {
                    Cell cell = cells.get(new Cell.Key(engine, database, pattern, blob, mode));
                    if (cell != null && cell.ok() && cell.throughput() != null) {
                        candidates.add(cell);
                    }
                }
            }
        }
        return candidates.stream().max(Comparator.comparingDouble(Cell::throughput));
    }
}
