package org.streambench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report's section on fill level, when some runs are steps of a fill ({@code bench run
 * --steps N}): per engine, database, BLOB size and variant, each step's throughput and end-to-end
 * p99 against the rows the table held before it, as a table and as two line charts. Does a database
 * slow down as it fills?
 */
final class FillLevel {

    private FillLevel() {}

    static boolean any(List<RunRecord> runs) {
        return runs.stream().anyMatch(run -> run.fill() != null);
    }

    /** One fill curve: its steps' cells by step number. */
    private record Curve(String name, TreeMap<Integer, Cell> steps) {}

    static void html(StringBuilder h, Path out, Map<Cell.Key, Cell> cells) throws IOException {
        Map<String, Curve> curves = new LinkedHashMap<>();
        cells.values().stream()
                .filter(cell -> cell.runs().get(0).fill() != null)
                .sorted(Comparator.comparing((Cell c) -> c.key().engine())
                        .thenComparing(c -> c.key().database())
                        .thenComparingInt(c -> c.key().blobBytes()))
                .forEach(cell -> {
                    RunRecord run = cell.runs().get(0);
                    String name = run.engine() + " x " + run.database() + ", " + run.blobBytes() + " B, "
                            + run.variantOfFill();
                    curves.computeIfAbsent(name, n -> new Curve(n, new TreeMap<>()))
                            .steps()
                            .put(run.fill().step(), cell);
                });
        h.append("<h2>Fill level: does the database slow down as it fills?</h2>\n<p>Each step of a fill inserted into")
                .append(" the table the steps before it left (<code>bench run --steps N</code>); its throughput and")
                .append(" the end-to-end p99 of its records against the rows the table held when it started.</p>\n");
        Map<String, double[][]> throughput = new LinkedHashMap<>();
        Map<String, double[][]> p99 = new LinkedHashMap<>();
        for (Curve curve : curves.values()) {
            List<double[]> throughputPoints = new ArrayList<>();
            List<double[]> p99Points = new ArrayList<>();
            curve.steps().values().forEach(cell -> {
                if (cell.ok()) {
                    double rows = rowsBefore(cell);
                    throughputPoints.add(new double[] {rows, cell.throughput()});
                    cell.endToEndP99().ifPresent(value -> p99Points.add(new double[] {rows, value / 1000}));
                }
            });
            throughput.put(curve.name(), points(throughputPoints));
            if (!p99Points.isEmpty()) {
                p99.put(curve.name(), points(p99Points));
            }
        }
        if (!nonEmpty(throughput).isEmpty()) {
            String throughputPng = Charts.lines(
                    out,
                    "Throughput against fill level",
                    "rows stored before the step",
                    "records/s",
                    "fill-throughput",
                    nonEmpty(throughput));
            h.append("<img alt=\"throughput against fill level\" src=\"")
                    .append(throughputPng)
                    .append("\">\n");
        }
        if (!p99.isEmpty()) {
            String p99Png = Charts.lines(
                    out,
                    "End-to-end p99 against fill level",
                    "rows stored before the step",
                    "milliseconds",
                    "fill-p99",
                    nonEmpty(p99));
            h.append("<img alt=\"end-to-end p99 against fill level\" src=\"")
                    .append(p99Png)
                    .append("\">\n");
        }
        h.append("<table><thead><tr><th class=\"l\">fill</th><th>step</th><th>rows before</th>")
                .append("<th>throughput (records/s)</th><th>end-to-end p99 (µs)</th></tr></thead><tbody>");
        for (Curve curve : curves.values()) {
            curve.steps().forEach((step, cell) -> h.append("<tr><td class=\"l\">")
                    .append(Html.esc(curve.name()))
                    .append("</td><td>")
                    .append(step)
                    .append("</td><td>")
                    .append(Html.whole(rowsBefore(cell)))
                    .append("</td><td>")
                    .append(cell.ok() ? Html.whole(cell.throughput()) : "<span class=\"bad\">failed</span>")
                    .append("</td><td>")
                    .append(cell.endToEndP99().map(Html::whole).orElse(""))
                    .append("</td></tr>"));
        }
        h.append("</tbody></table>\n");
    }

    /** The mean over the step's runs (repetitions of the fill) of the rows stored before it. */
    private static double rowsBefore(Cell cell) {
        return cell.runs().stream()
                .mapToLong(run -> run.fill().rowsBefore())
                .average()
                .orElse(0);
    }

    private static double[][] points(List<double[]> points) {
        double[][] xy = new double[2][points.size()];
        for (int i = 0; i < points.size(); i++) {
            xy[0][i] = points.get(i)[0];
            xy[1][i] = points.get(i)[1];
        }
        return xy;
    }

    /** XChart refuses a series without points: a curve whose every step failed has none. */
    private static Map<String, double[][]> nonEmpty(Map<String, double[][]> series) {
        Map<String, double[][]> kept = new LinkedHashMap<>();
        series.forEach((name, xy) -> {
            if (xy[0].length > 0) {
                kept.put(name, xy);
            }
        });
        return kept;
    }
}
