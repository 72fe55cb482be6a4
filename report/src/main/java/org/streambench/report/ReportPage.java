package org.streambench.report;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * index.html of a report: its header, Tables 1-4 beside the study's, the sections that only some
 * results have (access modes, guarantees, fill level, settings, efficiency, a comparison), the
 * figures and every cell.
 */
final class ReportPage {

    private final Report report;
    private final Path dir;
    private final List<RunRecord> runs;
    private final Map<Cell.Key, Cell> cells;
    private final List<String> engines;
    private final List<String> databases;
    private final List<String> patterns;
    private final List<Integer> blobs;
    private final PlannedCells planned;
    private final VariedSettings varied;

    ReportPage(Report report) {
        this.report = report;
        this.dir = report.dir();
        this.runs = report.runs();
        this.cells = report.cells();
        this.engines = report.engines();
        this.databases = report.databases();
        this.patterns = report.patterns();
        this.blobs = report.blobs();
        this.planned = report.planned();
        this.varied = report.varied();
    }

    String html(Path out, Comparison comparison, String otherLabel) throws IOException {
        Scores scores = report.scores();
        StringBuilder h = new StringBuilder();
        h.append(
                        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>streambench report</title>\n<style>")
                .append(
                        "body{font-family:sans-serif;margin:24px;max-width:1400px}table{border-collapse:collapse;margin:8px 0 20px}")
                .append(
                        "td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}th{background:#eee}td.l,th.l{text-align:left}")
                .append(".bad{color:#b00;font-weight:bold}.tie{color:#555}.figs img{margin:4px;border:1px solid #ddd}")
                .append(
                        ".note{background:#fff6d5;padding:6px 10px;border-left:4px solid #e0b000}</style></head><body>\n");
        h.append("<h1>streambench report</h1>\n");
        header(h);
        h.append("<h2>Table 1: fastest engine (throughput points per engine and database)</h2>\n");
        points(h, scores.table1(), 1);
        h.append("<h2>Table 2: lowest read latency (points per engine and database)</h2>\n");
        points(h, scores.table2(), 2);
        h.append("<h2>Table 3: best and second-best database/engine by throughput</h2>\n");
        rankings(h, scores.table3(), 3, "records/s");
        h.append("<h2>Table 4: best and second-best database by read latency</h2>\n");
        rankings(h, scores.table4(), 4, "µs");
        if (report.accessModes().size() > 1) {
            AccessModes.html(h, out, cells, engines, scores.databases(), patterns, blobs, report.accessModes());
        }
        if (Guarantees.any(runs)) {
            Guarantees.html(h, out, cells);
        }
        if (FillLevel.any(runs)) {
            FillLevel.html(h, out, cells);
        }
        if (varied.any()) {
            SettingChanges.html(h, cells, varied);
        }
        if (Efficiency.any(runs)) {
            Efficiency.html(h, cells);
        }
        if (comparison != null) {
            comparison.html(h, otherLabel);
        }
        h.append("<h2>Figures</h2>\n");
        for (String pattern : patterns) {
            h.append("<h3>").append(pattern).append("</h3>\n<div class=\"figs\">");
            for (int blob : blobs) {
                figure(
                        h,
                        "throughput " + pattern + " " + blob + " B",
                        Charts.throughput(out, cells, engines, databases, pattern, blob));
            }
            if (Scores.LATENCY_PATTERNS.contains(pattern)) {
                for (int blob : blobs) {
                    figure(
                            h,
                            "read latency " + pattern + " " + blob + " B",
                            Charts.latency(out, cells, engines, databases, pattern, blob));
                }
            }
            h.append("</div>\n");
        }
        h.append("<h2>Every cell</h2>\n");
        cellTable(h);
        h.append("<p>One row per run and repetition: <a href=\"results.csv\">results.csv</a>.</p>\n");
        // after loading, the page records how many figures rendered, so a headless browser can check it
        h.append(
                        "<script>window.addEventListener('load',function(){var i=document.images,ok=0;for(var k=0;k<i.length;k++)")
                .append(
                        "{if(i[k].complete&&i[k].naturalWidth>0)ok++;}document.body.setAttribute('data-figures-rendered',ok);")
                .append("document.body.setAttribute('data-figures-broken',i.length-ok);});</script>\n</body></html>\n");
        return h.toString();
    }

    private static void figure(StringBuilder h, String alt, String png) {
        h.append("<img alt=\"").append(alt).append("\" src=\"").append(png).append("\">");
    }

    private void header(StringBuilder h) {
        RunRecord first = runs.get(0);
        long failed = cells.values().stream().filter(c -> !c.ok()).count();
        h.append("<table><tbody>");
        Html.row(
                h,
                "results",
                runs.size() + " runs in " + cells.size() + " cells (" + engines.size() + " engines x "
                        + databases.size()
                        + " databases x " + patterns.size() + " patterns x " + blobs.size() + " BLOB sizes); "
                        + (failed == 0 ? "all ok" : failed + " cells failed or incomplete")
                        + (planned == null
                                ? ""
                                : "; the matrix planned " + planned.planned() + " experiments, "
                                        + (planned.missing().isEmpty()
                                                ? "every one has a result"
                                                : planned.missing().size() + " have no result")));
        Html.row(h, "machine", distinct(r -> r.host() + " (" + r.cores() + " cores)"));
        if (runs.stream().anyMatch(r -> r.calibration() != null)) {
            Html.row(
                    h,
                    "its limits (bench calibrate)",
                    distinct(r -> r.calibration() == null ? "not measured" : Efficiency.limits(r.calibration())));
        }
        Html.row(h, "engines", distinct(RunRecord::engineVersion));
        Html.row(h, "databases", distinct(RunRecord::databaseVersion));
        Html.row(h, "measured / warm-up", distinct(r -> r.durationSeconds() + " s / " + r.warmupSeconds() + " s"));
        Html.row(
                h,
                "key space, parallelism, rate",
                distinct(r -> r.keys() + " keys, parallelism " + r.parallelism() + ", "
                        + (r.rate() > 0 ? r.rate() + " records/s" : "unthrottled")));
        Html.row(h, "commit", distinct(r -> r.commit() == null ? "unknown" : r.commit()));
        Html.row(
                h,
                "folder",
                dir.getFileSystem() == FileSystems.getDefault()
                        ? dir.toAbsolutePath().toString()
                        : dir.toUri().toString());
        h.append("</tbody></table>\n");
        if (planned != null && !planned.missing().isEmpty()) {
            h.append("<p class=\"bad\">This matrix is unfinished: ")
                    .append(planned.missing().size())
                    .append(" of ")
                    .append(planned.planned())
                    .append(" planned experiments have no result (")
                    .append(Html.esc(planned.missing().stream()
                            .collect(Collectors.groupingBy(
                                    PlannedCells.Missing::state, TreeMap::new, Collectors.counting()))
                            .entrySet()
                            .stream()
                            .map(e -> e.getValue() + " " + e.getKey())
                            .collect(Collectors.joining(", "))))
                    .append("); the tables score only what was measured. They are listed under Every cell.</p>\n");
        }
        if (runs.stream().anyMatch(RunRecord::emulated)) {
            h.append("<p class=\"note\">* Measured against an emulator, not the real database: ")
                    .append(Html.esc(runs.stream()
                            .filter(RunRecord::emulated)
                            .map(RunRecord::databaseNote)
                            .findFirst()
                            .orElse("")))
                    .append(" These numbers say nothing about that database.</p>\n");
        }
        long relaxed = runs.stream().filter(RunRecord::relaxedDurability).count();
        if (relaxed > 0) {
            h.append("<p class=\"note\">")
                    .append(relaxed == runs.size() ? "Every run" : relaxed + " of " + runs.size() + " runs")
                    .append(" used the fast durability profile (--db-profile fast): the database gave up durability on")
                    .append(" purpose (e.g. PostgreSQL without fsync), unlike the study's, which ran its vendors'")
                    .append(" defaults.</p>\n");
        }
        long durable = runs.stream().filter(RunRecord::strictDurability).count();
        if (durable > 0) {
            h.append("<p class=\"note\">")
                    .append(durable == runs.size() ? "Every run" : durable + " of " + runs.size() + " runs")
                    .append(" used the durable profile (--db-profile durable): every acknowledged write was synced")
                    .append(" first, stricter than the study's vendor defaults for Cassandra, HBase and Redis.</p>\n");
        }
        h.append(
                        "<p>The study's values come from a 6-server cluster (10-minute runs); compare rankings and ratios, not absolute values. ")
                .append(first.durationSeconds() < 600 ? "These runs are shorter than the study's. " : "")
                .append("</p>\n");
    }

    private String distinct(Function<RunRecord, String> f) {
        return String.join(
                "; ",
                new TreeSet<>(runs.stream()
                        .map(f)
                        .map(v -> Objects.toString(v, "unknown"))
                        .toList()));
    }

    private void points(StringBuilder h, Scores.Points points, int table) {
        Map<String, Map<String, Integer>> study = StudyReference.load().scores().get(table);
        h.append("<table><thead><tr><th class=\"l\">engine</th>");
        List<String> scored = databases.stream()
                .filter(d -> !d.equals(Report.HARNESS_CEILING)
                        && !report.beyondStudy().contains(d))
                .toList();
        scored.forEach(d -> h.append("<th>").append(Html.esc(d)).append("</th>"));
        h.append("<th>total</th><th>study's total</th></tr></thead><tbody>");
        for (String engine : engines) {
            h.append("<tr><td class=\"l\">").append(Html.esc(engine)).append("</td>");
            for (String database : scored) {
                Integer theirs = study == null || !study.containsKey(engine)
                        ? null
                        : study.get(engine).get(database);
                h.append("<td>")
                        .append(points.byEngineAndDatabase().get(engine).get(database))
                        .append(theirs == null ? "" : " <span class=\"tie\">(" + theirs + ")</span>")
                        .append("</td>");
            }
            Integer studyTotal = study == null || !study.containsKey(engine)
                    ? null
                    : study.get(engine).values().stream()
                            .mapToInt(Integer::intValue)
                            .sum();
            h.append("<td>")
                    .append(points.total(engine))
                    .append("</td><td>")
                    .append(studyTotal == null ? "" : studyTotal)
                    .append("</td></tr>");
        }
        h.append("</tbody></table>\n<p>").append(points.scored()).append(" variants scored");
        if (points.skipped() > 0) {
            h.append(", <span class=\"bad\">")
                    .append(points.skipped())
                    .append(" skipped</span> (fewer than two engines ran and verified)");
        }
        h.append("; the study's points in parentheses. ")
                .append(points.decided())
                .append(" of them decided, ")
                .append(points.tied())
                .append(" tied within the noise (ties give a point to each).");
        if (study != null) {
            double correlation = Scores.pointsCorrelation(points, study);
            h.append(
                    Double.isNaN(correlation)
                            ? " Rank correlation with the study's points: not defined (too few pairs, or one side's points are all equal)."
                            : String.format(
                                    Locale.ROOT,
                                    " Rank correlation with the study's points over the engine x database pairs (Spearman): %.2f.",
                                    correlation));
        }
        h.append(
                        databases.contains(Report.HARNESS_CEILING)
                                ? " The noop runs (the harness's ceiling) are in the figures, not in the tables."
                                : "")
                .append(
                        report.beyondStudy().isEmpty()
                                ? ""
                                : " Not in the study, so not in these tables: "
                                        + Html.esc(String.join(", ", report.beyondStudy()))
                                        + " (in the figures and under Every cell).")
                .append(unrankedNote())
                .append("</p>\n");
    }

    /** The line under every table that names what it left out because it was an emulator. */
    private String unrankedNote() {
        List<String> unranked = report.unranked();
        return unranked.isEmpty()
                ? ""
                : " <span class=\"bad\">Not ranked: " + Html.esc(String.join(", ", unranked))
                        + ", measured against an emulator</span> (in the figures and under Every cell, marked *;"
                        + " <code>--rank-emulators</code> ranks it).";
    }

    private void rankings(
            StringBuilder h, Map<Scores.PatternBlob, List<Scores.Ranked>> table, int number, String unit) {
        StudyReference study = StudyReference.load();
        int rows = 0;
        int winnerMatches = 0;
        List<Integer> winnerPlaces = new ArrayList<>();
        h.append(
                        "<table><thead><tr><th class=\"l\">pattern</th><th>BLOB</th><th class=\"l\">best</th><th class=\"l\">second</th>")
                .append(
                        "<th class=\"l\">study's best</th><th class=\"l\">study's second</th><th class=\"l\">same winning database</th></tr></thead><tbody>");
        for (Map.Entry<Scores.PatternBlob, List<Scores.Ranked>> e : table.entrySet()) {
            List<Scores.Ranked> ranked = e.getValue();
            StudyReference.Entry best =
                    study.entry(number, e.getKey().pattern(), e.getKey().blobBytes(), 1);
            StudyReference.Entry second =
                    study.entry(number, e.getKey().pattern(), e.getKey().blobBytes(), 2);
            h.append("<tr><td class=\"l\">")
                    .append(Html.esc(e.getKey().pattern()))
                    .append("</td><td>")
                    .append(e.getKey().blobBytes())
                    .append("</td>");
            h.append("<td class=\"l\">")
                    .append(
                            ranked.isEmpty()
                                    ? "<span class=\"bad\">no result</span>"
                                    : ranked(ranked.get(0), number, unit))
                    .append("</td><td class=\"l\">")
                    .append(ranked.size() < 2 ? "" : ranked(ranked.get(1), number, unit))
                    .append("</td>");
            h.append("<td class=\"l\">")
                    .append(best == null ? "" : studyEntry(best))
                    .append("</td><td class=\"l\">")
                    .append(second == null ? "" : studyEntry(second))
                    .append("</td>");
            String agree = "";
            if (best != null && report.unranked().contains(best.database())) {
                agree = Html.esc(best.database()) + " not ranked here (emulator)";
            } else if (best != null && !ranked.isEmpty()) {
                rows++;
                int place = Scores.databasePlace(ranked, best.database());
                long measuredDatabases =
                        ranked.stream().map(Scores.Ranked::database).distinct().count();
                winnerMatches += place == 1 ? 1 : 0;
                if (place > 0) {
                    winnerPlaces.add(place);
                }
                agree = place == 1
                        ? "yes"
                        : place == 0
                                ? "no: " + Html.esc(best.database()) + " not measured here"
                                : "no: " + Html.esc(best.database()) + " places " + place + " of " + measuredDatabases;
            }
            h.append("<td class=\"l\">").append(agree).append("</td></tr>");
        }
        h.append("</tbody></table>\n");
        long nonEmpty = table.values().stream().filter(r -> !r.isEmpty()).count();
        long decided = table.values().stream()
                .filter(r -> !r.isEmpty() && Scores.firstPlaceDecided(r))
                .count();
        h.append("<p>")
                .append(decided)
                .append(" of ")
                .append(nonEmpty)
                .append(" first places decided, ")
                .append(nonEmpty - decided)
                .append(" tied within the noise (the 95 % intervals of the best and the second overlap).")
                .append(unrankedNote())
                .append("</p>\n");
        if (rows > 0) {
            h.append("<p>The study's winning database wins here in ")
                    .append(winnerMatches)
                    .append(" of ")
                    .append(rows)
                    .append(" pattern x BLOB sizes")
                    .append(
                            winnerPlaces.isEmpty()
                                    ? ""
                                    : String.format(
                                            Locale.ROOT,
                                            "; its mean place among the databases here is %.1f",
                                            winnerPlaces.stream()
                                                    .mapToInt(Integer::intValue)
                                                    .average()
                                                    .orElseThrow()))
                    .append(".</p>\n");
        }
    }

    private static String ranked(Scores.Ranked r, int table, String unit) {
        return Html.esc(r.database() + (table == 3 || table == 4 ? " / " + r.engine() : "")) + (r.emulated() ? "*" : "")
                + " "
                + String.format(Locale.ROOT, "%,.0f", r.value())
                + (r.half() > 0 ? String.format(Locale.ROOT, " ± %,.0f", r.half()) : "")
                + " " + unit + (r.tiedWithAbove() ? " <span class=\"tie\">(tie)</span>" : "");
    }

    private static String studyEntry(StudyReference.Entry e) {
        return Html.esc(e.database() + (e.engine().isEmpty() ? "" : " / " + e.engine())) + " "
                + String.format(Locale.ROOT, "%,.0f", e.value()) + " "
                + (e.unit().equals("us") ? "µs" : e.unit());
    }

    /**
     * The cell's throughput as a share of the database's own load tool on the same server (bench run
     * --ceiling), e.g. "0.87 (pgbench)": the mean over its runs that measured one, else empty.
     */
    static String ofCeiling(Cell c) {
        List<RunRecord> measured = c.runs().stream()
                .filter(r -> r.ok() && r.ceilingRatio() != null)
                .toList();
        if (measured.isEmpty()) {
            return "";
        }
        double mean =
                measured.stream().mapToDouble(RunRecord::ceilingRatio).average().orElseThrow();
        return String.format(Locale.ROOT, "%.2f (%s)", mean, measured.get(0).ceilingTool());
    }

    private void cellTable(StringBuilder h) {
        boolean withCeiling = runs.stream().anyMatch(r -> r.ceilingRatio() != null);
        h.append(
                        "<table><thead><tr><th class=\"l\">engine</th><th class=\"l\">database</th><th class=\"l\">pattern</th><th>BLOB</th>")
                .append(
                        "<th class=\"l\">access</th><th>runs</th><th>throughput (records/s)</th><th>read latency (µs, mean ± sd)</th>")
                .append(withCeiling ? "<th>of the ceiling</th>" : "")
                .append("<th class=\"l\">state</th></tr></thead><tbody>");
        List<Cell> sorted = new ArrayList<>(cells.values());
        sorted.sort(Comparator.comparing((Cell c) -> c.key().pattern())
                .thenComparing(c -> c.key().blobBytes())
                .thenComparing(c -> c.key().database())
                .thenComparing(c -> c.key().engine())
                .thenComparing(c -> c.key().access()));
        for (Cell c : sorted) {
            String state = c.ok()
                    ? "ok"
                    : "<span class=\"bad\">FAILED: "
                            + Html.esc(c.runs().stream()
                                    .filter(r -> !r.ok())
                                    .map(r -> r.status() + (r.error() == null ? "" : " (" + r.error() + ")"))
                                    .findFirst()
                                    .orElse(""))
                            + "</span>";
            h.append("<tr><td class=\"l\">")
                    .append(Html.esc(c.key().engine()))
                    .append("</td><td class=\"l\">")
                    .append(Html.esc(c.key().database()))
                    .append(c.emulated() ? "*" : "")
                    .append("</td><td class=\"l\">")
                    .append(Html.esc(c.key().pattern()))
                    .append("</td><td>")
                    .append(c.key().blobBytes())
                    .append("</td><td class=\"l\">")
                    .append(Html.esc(c.key().access()))
                    .append("</td><td>")
                    .append(c.runs().size())
                    .append("</td><td>")
                    .append(
                            c.throughput() == null
                                    ? ""
                                    : String.format(Locale.ROOT, "%,.0f", c.throughput())
                                            + (c.throughputHalf() > 0
                                                    ? String.format(Locale.ROOT, " ± %,.0f", c.throughputHalf())
                                                    : ""))
                    .append("</td><td>")
                    .append(
                            c.latency() == null
                                    ? ""
                                    : String.format(Locale.ROOT, "%,.0f ± %,.0f", c.latency(), c.latencyStddev()))
                    .append(withCeiling ? "</td><td>" + Html.esc(ofCeiling(c)) : "")
                    .append("</td><td class=\"l\">")
                    .append(state)
                    .append("</td></tr>");
        }
        if (planned != null) {
            for (PlannedCells.Missing m : planned.missing()) {
                h.append("<tr><td class=\"l\">")
                        .append(Html.esc(m.engine()))
                        .append("</td><td class=\"l\">")
                        .append(Html.esc(m.database()))
                        .append("</td><td class=\"l\">")
                        .append(Html.esc(m.pattern()))
                        .append("</td><td>")
                        .append(m.blobBytes())
                        .append("</td><td class=\"l\">")
                        .append(Html.esc(m.access()))
                        .append("</td><td>0</td><td></td><td></td>" + (withCeiling ? "<td></td>" : "")
                                + "<td class=\"l\"><span class=\"bad\">NO RESULT: ")
                        .append(Html.esc(m.state() + (m.reason() == null ? "" : " (" + m.reason() + ")")))
                        .append("</span></td></tr>");
            }
        }
        h.append("</tbody></table>\n");
    }
}
