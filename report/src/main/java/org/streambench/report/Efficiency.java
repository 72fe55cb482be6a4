package org.streambench.report;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.streambench.model.RunDocument;

/**
 * The report's section on what each record cost, when the runs recorded their resources: per
 * cell, the CPU-seconds per million records of the database server, the engine's job and the
 * runner, and the bytes the database's device wrote per record with the write amplification
 * (means over the cell's ok runs). On a machine whose cores the three share, these say more about
 * a larger machine than the throughput does.
 */
final class Efficiency {

    private Efficiency() {}

    static boolean any(List<RunRecord> runs) {
        return runs.stream().anyMatch(r -> r.resources() != null);
    }

    static void html(StringBuilder h, Map<Cell.Key, Cell> cells) {
        h.append("<h2>Efficiency: what each record cost</h2>\n<p>CPU-seconds per million records of each")
                .append(" role over the measured window (from /proc), and the bytes the device holding the")
                .append(" database's data wrote per record; write amplification: those bytes per byte of payload")
                .append(" (BLOB plus 48 bytes of id and fields). Means over each cell's ok runs; empty where a")
                .append(" run could not see a role (an external server, a job on YARN). Records per synced write:")
                .append(" the throughput per 8 KB write-and-fdatasync the machine does one after another")
                .append(" (bench calibrate); near 1 or above for a pattern that commits every record, the cell ran")
                .append(" at the machine's limit rather than the database's. A throughput marked")
                .append(" <b>behind</b>: a run of the cell fell behind its target rate, and its costs were measured on")
                .append(
                        " a pipeline catching up beside whatever held it back (an engine's CPU per record rose by a third")
                .append(" in such runs here): they do not compare with those of a run that kept its rate.</p>\n");
        boolean exporters = cells.values().stream()
                .flatMap(c -> c.runs().stream())
                .anyMatch(r -> r.exportersBusyCpuSecondsPerMillionRecords() != null
                        || r.exportersDiskWriteBytesPerRecord() != null);
        if (exporters) {
            h.append("<p>Machines seen through exporters (bench monitor scrape; an external server's): the busy")
                    .append(" CPU-seconds per million records of every machine whose node exporter the run read,")
                    .append(" whoever used them, and the bytes their disks wrote per record.</p>\n");
        }
        h.append(
                        "<table><thead><tr><th class=\"l\">engine</th><th class=\"l\">database</th><th class=\"l\">pattern</th>")
                .append("<th>BLOB</th><th class=\"l\">variant</th><th>throughput (records/s)</th><th>database")
                .append(" CPU-s / 1M</th><th>engine CPU-s / 1M</th><th>runner CPU-s / 1M</th><th>device bytes")
                .append(" / record</th><th>write amplification</th><th>records per synced write</th>")
                .append(
                        exporters
                                ? "<th>exporters' machines CPU-s / 1M</th><th>exporters' disk bytes / record</th>"
                                : "")
                .append("</tr></thead><tbody>");
        List<Cell> measured = cells.values().stream()
                .filter(Cell::ok)
                .filter(c -> c.runs().stream().anyMatch(r -> r.resources() != null))
                .sorted(Comparator.comparing((Cell c) -> c.key().pattern())
                        .thenComparingInt(c -> c.key().blobBytes())
                        .thenComparing(c -> c.key().database())
                        .thenComparing(c -> c.key().engine())
                        .thenComparing(c -> c.key().access()))
                .toList();
        for (Cell cell : measured) {
            Cell.Key key = cell.key();
            h.append("<tr>");
            Html.keyCells(h, key);
            h.append("<td>")
                    .append(String.format(Locale.ROOT, "%,.0f", cell.throughput()))
                    .append(behind(cell) ? " <b>behind</b>" : "")
                    .append("</td>")
                    .append(mean(cell, r -> r.cpuSecondsPerMillionRecords("database"), "%,.1f"))
                    .append(mean(cell, r -> r.cpuSecondsPerMillionRecords("engine"), "%,.1f"))
                    .append(mean(cell, r -> r.cpuSecondsPerMillionRecords("runner"), "%,.1f"))
                    .append(mean(cell, RunRecord::deviceWriteBytesPerRecord, "%,.0f"))
                    .append(mean(cell, RunRecord::writeAmplification, "%,.1f"))
                    .append(mean(cell, RunRecord::perSyncedWrite, "%,.2f"));
            if (exporters) {
                h.append(mean(cell, RunRecord::exportersBusyCpuSecondsPerMillionRecords, "%,.1f"))
                        .append(mean(cell, RunRecord::exportersDiskWriteBytesPerRecord, "%,.0f"));
            }
            h.append("</tr>");
        }
        h.append("</tbody></table>\n");
    }

    /** A machine's calibration in a few words, for the report's header. */
    static String limits(RunDocument.Calibration c) {
        return String.format(
                Locale.ROOT,
                "%,.0f synced 8 KB writes/s (p99 %,d µs), %,.0f MB/s sequential write, one core sorts %.1f M longs/s"
                        + " (%s, measured %s)",
                c.syncedWritesPerSecond(),
                c.syncedWriteP99Micros(),
                c.sequentialWriteMBps(),
                c.sortedMillionsPerSecond(),
                c.device() == null ? "no block device" : c.device(),
                c.measuredAt().length() >= 10 ? c.measuredAt().substring(0, 10) : c.measuredAt());
    }

    /** Whether one of the cell's ok runs fell behind its target rate. */
    private static boolean behind(Cell cell) {
        return cell.runs().stream().filter(RunRecord::ok).anyMatch(RunRecord::behindTargetRate);
    }

    private static String mean(Cell cell, Function<RunRecord, Double> value, String format) {
        Double mean = cell.meanOverOkRuns(value);
        return "<td>" + (mean != null ? String.format(Locale.ROOT, format, mean) : "") + "</td>";
    }
}
