package org.streambench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.streambench.model.RunDocument;

/**
 * The report's section on processing guarantees, when some runs had one: for every cell with a
 * guarantee, its throughput and end-to-end p99 beside those of the same engine, database, pattern,
 * BLOB size and access mode without a guarantee (when the runs hold that cell), and what the audit
 * found: records applied twice and records lost; after an injected fault, how long its throughput
 * took to get back to 90 % of what it was before (the slowest of the cell's runs); when a cell ran at two or more checkpoint
 * intervals, a chart of its throughput against the interval.
 */
final class Guarantees {

    private Guarantees() {}

    static boolean any(List<RunRecord> runs) {
        return runs.stream().anyMatch(RunRecord::hasGuarantee);
    }

    static void html(StringBuilder h, Path out, Map<Cell.Key, Cell> cells) throws IOException {
        h.append("<h2>Guarantees: what they cost</h2>\n<p>Each cell with a guarantee beside the same cell without")
                .append(" one. Exactly-once writes each key once per checkpoint and reads its own uncommitted")
                .append(" writes from memory, so its throughput can far exceed none's; its end-to-end latency")
                .append(" includes the wait for the checkpoint. The audit counts records applied twice and")
                .append(" records lost, summed over the cell's runs. After an injected fault: the seconds until the")
                .append(" throughput was back at 90 % of what it was before, the slowest of the cell's runs.</p>\n");
        h.append(
                        "<table><thead><tr><th class=\"l\">engine</th><th class=\"l\">database</th><th class=\"l\">pattern</th>")
                .append("<th>BLOB</th><th class=\"l\">variant</th><th>throughput (records/s)</th><th>without a")
                .append(" guarantee</th><th>ratio</th><th>end-to-end p99 (µs)</th><th>without a guarantee</th>")
                .append("<th>applied twice</th><th>lost</th><th>back after the fault (s)</th></tr></thead><tbody>");
        List<Cell> guaranteed = cells.values().stream()
                .filter(c -> c.runs().get(0).hasGuarantee())
                .sorted(Cell.BY_KEY)
                .toList();
        for (Cell cell : guaranteed) {
            Cell.Key key = cell.key();
            Cell none = cells.get(new Cell.Key(
                    key.engine(),
                    key.database(),
                    key.pattern(),
                    key.blobBytes(),
                    cell.runs().get(0).variantWithoutGuarantee()));
            boolean comparable = none != null && none.ok() && cell.ok();
            h.append("<tr>");
            Html.keyCells(h, key);
            h.append("<td>")
                    .append(cell.ok() ? Html.whole(cell.throughput()) : "<span class=\"bad\">failed</span>")
                    .append("</td><td>")
                    .append(none != null && none.ok() ? Html.whole(none.throughput()) : "")
                    .append("</td><td>")
                    .append(
                            comparable
                                    ? String.format(Locale.ROOT, "%.2fx", cell.throughput() / none.throughput())
                                    : "")
                    .append("</td><td>")
                    .append(cell.endToEndP99().map(Html::whole).orElse(""))
                    .append("</td><td>")
                    .append(
                            none == null
                                    ? ""
                                    : none.endToEndP99().map(Html::whole).orElse(""))
                    .append("</td>")
                    .append(auditCell(
                            cell.runs().stream().map(RunRecord::duplicates).toList()))
                    .append(auditCell(
                            cell.runs().stream().map(RunRecord::losses).toList()))
                    .append(recoveryCell(cell.runs()))
                    .append("</tr>");
        }
        h.append("</tbody></table>\n");
        intervalChart(h, out, guaranteed);
    }

    /**
     * When a cell was measured at two or more checkpoint intervals: throughput against the interval,
     * a line per engine, database, pattern, BLOB size, access mode and guarantee.
     */
    private static void intervalChart(StringBuilder h, Path out, List<Cell> guaranteed) throws IOException {
        Map<String, TreeMap<Long, Double>> lines = new LinkedHashMap<>();
        for (Cell cell : guaranteed) {
            RunRecord run = cell.runs().get(0);
            if (cell.ok() && run.checkpointIntervalMillis() != null) {
                String name = run.engine() + " x " + run.database() + ", " + run.pattern() + ", " + run.blobBytes()
                        + " B, " + run.access() + ", " + run.guarantee();
                lines.computeIfAbsent(name, n -> new TreeMap<>())
                        .put(run.checkpointIntervalMillis(), cell.throughput());
            }
        }
        Map<String, double[][]> series = new LinkedHashMap<>();
        lines.forEach((name, points) -> {
            if (points.size() >= 2) {
                double[][] xy = new double[2][points.size()];
                int i = 0;
                for (Map.Entry<Long, Double> point : points.entrySet()) {
                    xy[0][i] = point.getKey() / 1000.0;
                    xy[1][i++] = point.getValue();
                }
                series.put(name, xy);
            }
        });
        if (series.isEmpty()) {
            return;
        }
        String png = Charts.lines(
                out,
                "Throughput against checkpoint interval",
                "checkpoint interval (s)",
                "records/s",
                "guarantee-intervals",
                series);
        h.append("<img alt=\"throughput against checkpoint interval\" src=\"")
                .append(png)
                .append("\">\n");
    }

    /** The audit's count summed over the runs; empty when no run was audited, marked when it is not 0. */
    /** The slowest recovery from an injected fault among the runs; "not back" if one never recovered. */
    private static String recoveryCell(List<RunRecord> runs) {
        List<RunDocument.FaultRecovery> faults = runs.stream()
                .map(RunRecord::recovery)
                .filter(recovery -> recovery != null && recovery.fault() != null)
                .map(RunDocument.Recovery::fault)
                .filter(fault -> fault.recordsPerSecondBefore() != null)
                .toList();
        if (faults.isEmpty()) {
            return "<td></td>";
        }
        if (faults.stream().anyMatch(fault -> fault.recoverySeconds() == null)) {
            return "<td class=\"bad\">not back</td>";
        }
        double slowest = faults.stream()
                .mapToDouble(RunDocument.FaultRecovery::recoverySeconds)
                .max()
                .orElseThrow();
        return String.format(Locale.ROOT, "<td>%.1f</td>", slowest);
    }

    private static String auditCell(List<Long> counts) {
        List<Long> audited = counts.stream().filter(Objects::nonNull).toList();
        if (audited.isEmpty()) {
            return "<td></td>";
        }
        long sum = audited.stream().mapToLong(Long::longValue).sum();
        return sum == 0 ? "<td>0</td>" : "<td class=\"bad\">" + String.format(Locale.ROOT, "%,d", sum) + "</td>";
    }
}
