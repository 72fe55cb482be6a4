package org.streambench.report;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.streambench.model.CapacityDocument;

/**
 * Renders {@code DIR/report/}: {@code index.html} (opens offline), {@code results.csv} (one row per
 * run) and the figures beside them, from the result.json files under DIR only, so results from
 * another machine or cluster render the same way.
 */
public final class Report {

    public static final String FOLDER = "report";
    static final String HARNESS_CEILING = "noop";
    private static final List<String> PATTERN_ORDER = List.of("read", "insert", "update", "mixed");

    private final Path dir;
    private final List<RunRecord> runs;
    private final Map<Cell.Key, Cell> cells = new LinkedHashMap<>();
    private final List<String> engines;
    private final List<String> databases;
    private final List<String> patterns;
    private final List<Integer> blobs;
    private final PlannedCells planned;
    private final Options options;
    private final List<String> notInStudy;
    private final VariedSettings varied;

    /**
     * How the report ranks: {@code rankEmulators} puts databases measured against an emulator (the
     * runs say so) into Tables 1-4's places and points; by default they are shown in the figures
     * and the "every cell" table, marked, but never ranked: their numbers say nothing about the database.
     */
    public record Options(boolean rankEmulators) {
        public static final Options DEFAULT = new Options(false);
    }

    /**
     * The order in which engines and databases appear in tables and figures: the registries' order
     * (the study's first), which the caller knows; a name it does not list comes after, alphabetically.
     * {@code beyondStudy}: the databases the study did not measure, which Tables 1-4 leave out.
     */
    public record Order(List<String> engines, List<String> databases, List<String> beyondStudy) {
        public static final Order ALPHABETICAL = new Order(List.of(), List.of(), List.of());
    }

    private Report(Path dir, List<RunRecord> runs, PlannedCells planned, Order order, Options options) {
        this.dir = dir;
        this.options = options;
        VariedSettings variedSettings = VariedSettings.of(runs);
        this.varied = variedSettings;
        runs = runs.stream()
                .map(run -> run.withSettingsVariant(variedSettings.variant(variedSettings.of(run))))
                .toList();
        this.runs = runs;
        this.planned = planned;
        Map<Cell.Key, List<RunRecord>> byKey = new LinkedHashMap<>();
        runs.forEach(r -> byKey.computeIfAbsent(
                        new Cell.Key(r.engine(), r.database(), r.pattern(), r.blobBytes(), r.variant()),
                        k -> new ArrayList<>())
                .add(r));
        byKey.forEach((key, list) -> cells.put(key, Cell.of(key, list)));
        engines = ordered(runs, RunRecord::engine, order.engines());
        databases = ordered(runs, RunRecord::database, order.databases());
        notInStudy = order.beyondStudy();
        patterns = ordered(runs, RunRecord::pattern, PATTERN_ORDER);
        blobs = new ArrayList<>(
                new TreeSet<>(runs.stream().map(RunRecord::blobBytes).toList()));
    }

    /** {@link #of(Path, Order)} with names in alphabetical order. */
    public static Report of(Path dir) throws IOException {
        return of(dir, Order.ALPHABETICAL);
    }

    /** Reads every result.json under {@code dir} (not under its report folder); throws {@link IllegalArgumentException} if there is none. */
    public static Report of(Path dir, Order order) throws IOException {
        return of(dir, order, Options.DEFAULT);
    }

    /** {@link #of(Path, Order)} ranked as {@code options} say. */
    public static Report of(Path dir, Order order, Options options) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a folder of results");
        }
        List<Path> folders;
        try (Stream<Path> files = Files.walk(dir)) {
            folders = files.filter(p -> p.getFileName().toString().equals("result.json"))
                    .filter(p -> !dir.relativize(p).startsWith(FOLDER))
                    .filter(p -> !inCapacitySearch(dir, p))
                    .map(Path::getParent)
                    .sorted()
                    .toList();
        }
        if (folders.isEmpty()) {
            throw new IllegalArgumentException(
                    dir + " holds no result.json (give a matrix folder or a folder of runs)");
        }
        List<RunRecord> runs = new ArrayList<>();
        for (Path folder : folders) {
            runs.add(RunRecord.read(folder));
        }
        PlannedCells planned =
                PlannedCells.read(dir, folders.stream().map(Path::normalize).collect(Collectors.toSet()));
        return new Report(dir, runs, planned, order, options);
    }

    /** A capacity search's steps are runs of one search, not results to rank (see {@link CapacityReport}). */
    private static boolean inCapacitySearch(Path dir, Path resultFile) {
        for (Path folder = resultFile.getParent();
                folder != null && folder.startsWith(dir);
                folder = folder.getParent()) {
            if (Files.exists(folder.resolve(CapacityDocument.FILE))) {
                return true;
            }
        }
        return false;
    }

    /** The matrix's plan when DIR is a matrix folder (with the planned experiments that have no result); else null. */
    public PlannedCells planned() {
        return planned;
    }

    /**
     * The tables score real databases only: not {@code noop} (the harness's ceiling, it stores
     * nothing), nor a database measured against an emulator unless {@link Options#rankEmulators}.
     */
    public Scores scores() {
        List<String> unranked = new ArrayList<>(unranked());
        unranked.addAll(beyondStudy());
        return new Scores(
                cells,
                engines,
                databases.stream()
                        .filter(d -> !d.equals(HARNESS_CEILING) && !unranked.contains(d))
                        .toList(),
                patterns,
                blobs);
    }

    /** The access modes of the runs, sync first (Tables 1-4 and the study's figures are of the sync runs). */
    public List<String> accessModes() {
        return runs.stream()
                .map(RunRecord::access)
                .distinct()
                .sorted(Comparator.comparing((String mode) -> !mode.equals(Cell.Key.SYNC))
                        .thenComparing(Comparator.naturalOrder()))
                .toList();
    }

    /** The databases of these runs that the study did not measure: in the figures and every cell, not in Tables 1-4. */
    public List<String> beyondStudy() {
        return databases.stream().filter(notInStudy::contains).toList();
    }

    /** The databases left out of the places because their runs were against an emulator (none with rankEmulators). */
    public List<String> unranked() {
        if (options.rankEmulators()) {
            return List.of();
        }
        return databases.stream()
                .filter(d ->
                        cells.values().stream().anyMatch(c -> c.key().database().equals(d) && c.emulated()))
                .toList();
    }

    /**
     * One line of how much the tables decided: for Tables 1-2 the variants with one winner and those
     * whose best engines tie within the noise, for Tables 3-4 the rows whose first place is decided
     * or tied; and what was not ranked.
     */
    public String rankingSummary() {
        Scores scores = scores();
        Scores.Points table1 = scores.table1();
        Scores.Points table2 = scores.table2();
        long rows3 = scores.table3().values().stream().filter(r -> !r.isEmpty()).count();
        long decided3 = scores.table3().values().stream()
                .filter(r -> !r.isEmpty() && Scores.firstPlaceDecided(r))
                .count();
        long rows4 = scores.table4().values().stream().filter(r -> !r.isEmpty()).count();
        long decided4 = scores.table4().values().stream()
                .filter(r -> !r.isEmpty() && Scores.firstPlaceDecided(r))
                .count();
        return String.format(
                        Locale.ROOT,
                        "places decided / tied within the noise: Table 1 %d / %d variants, Table 2 %d / %d,"
                                + " Table 3 %d / %d first places, Table 4 %d / %d",
                        table1.decided(),
                        table1.tied(),
                        table2.decided(),
                        table2.tied(),
                        decided3,
                        rows3 - decided3,
                        decided4,
                        rows4 - decided4)
                + (unranked().isEmpty()
                        ? ""
                        : "; not ranked (emulator): " + String.join(", ", unranked()) + " (--rank-emulators ranks it)");
    }

    public List<RunRecord> runs() {
        return runs;
    }

    Map<Cell.Key, Cell> cells() {
        return cells;
    }

    /** Writes the report into DIR/report/; returns the path of index.html. */
    public Path write() throws IOException {
        return write(dir.resolve(FOLDER));
    }

    /** Writes the report into {@code out} (e.g. beside an archive of results, which cannot take it); returns index.html. */
    public Path write(Path out) throws IOException {
        return write(out, null, null);
    }

    /**
     * Writes the report into {@code out}, with a section comparing it with {@code other} (labelled
     * {@code otherLabel}) and comparison.csv when other is not null; returns index.html.
     */
    public Path write(Path out, Report other, String otherLabel) throws IOException {
        Comparison comparison = other == null ? null : Comparison.of(this, other);
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(out);
        writeCsv(out.resolve("results.csv"));
        Path tmp = out.resolve("index.html.tmp");
        if (comparison != null) {
            comparison.writeCsv(out.resolve("comparison.csv"));
        }
        Files.writeString(tmp, html(out, comparison, otherLabel), StandardCharsets.UTF_8);
        Files.move(tmp, out.resolve("index.html"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return out.resolve("index.html");
    }

    private void writeCsv(Path file) throws IOException {
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            csv.println("folder,engine,database,pattern,blobBytes,repetition,status,throughputMean,throughputStddev,"
                    + "readLatencyMeanMicros,readLatencyStddevMicros,p50,p95,p99,p999,mismatches,emulated,engineVersion,databaseVersion,"
                    + "durationSeconds,warmupSeconds,keys,parallelism,rate,commit,error,access,endToEndP99Micros,"
                    + "ceilingTool,ceilingThroughput,ceilingRatio,guarantee,checkpointIntervalMillis,fault,duplicates,losses,"
                    + "faultRecoverySeconds,"
                    + "keyDistribution,databaseCpuSecondsPerMillionRecords,engineCpuSecondsPerMillionRecords,"
                    + "runnerCpuSecondsPerMillionRecords,deviceWriteBytesPerRecord,writeAmplification,"
                    + "machineSyncedWritesPerSecond,recordsPerSyncedWrite");
            for (RunRecord r : runs) {
                RunRecord.Latency l = r.readLatency();
                csv.println(String.join(
                        ",",
                        field(dir.relativize(r.folder()).toString()),
                        r.engine(),
                        r.database(),
                        r.pattern(),
                        Integer.toString(r.blobBytes()),
                        repetition(r),
                        r.status(),
                        number(r.throughputMean()),
                        number(r.throughputStddev()),
                        l == null ? "" : number(l.mean()),
                        l == null ? "" : number(l.stddev()),
                        l == null ? "" : Long.toString(l.p50()),
                        l == null ? "" : Long.toString(l.p95()),
                        l == null ? "" : Long.toString(l.p99()),
                        l == null ? "" : Long.toString(l.p999()),
                        Long.toString(r.mismatches()),
                        Boolean.toString(r.emulated()),
                        field(r.engineVersion()),
                        field(r.databaseVersion()),
                        Integer.toString(r.durationSeconds()),
                        Integer.toString(r.warmupSeconds()),
                        Long.toString(r.keys()),
                        Integer.toString(r.parallelism()),
                        number(r.rate()),
                        field(r.commit()),
                        field(r.error()),
                        field(r.access()),
                        r.endToEndP99() == null ? "" : Long.toString(r.endToEndP99()),
                        field(r.ceilingTool()),
                        r.ceilingThroughput() == null ? "" : number(r.ceilingThroughput()),
                        r.ceilingRatio() == null ? "" : number(r.ceilingRatio()),
                        r.guarantee(),
                        r.checkpointIntervalMillis() == null ? "" : Long.toString(r.checkpointIntervalMillis()),
                        field(r.fault()),
                        r.duplicates() == null ? "" : Long.toString(r.duplicates()),
                        r.losses() == null ? "" : Long.toString(r.losses()),
                        optional(r.faultRecoverySeconds()),
                        r.keyDistribution(),
                        optional(r.cpuSecondsPerMillionRecords("database")),
                        optional(r.cpuSecondsPerMillionRecords("engine")),
                        optional(r.cpuSecondsPerMillionRecords("runner")),
                        optional(r.deviceWriteBytesPerRecord()),
                        optional(r.writeAmplification()),
                        r.calibration() == null ? "" : number(r.calibration().syncedWritesPerSecond()),
                        optional(r.perSyncedWrite())));
            }
        }
    }

    private static String optional(Double value) {
        return value == null ? "" : number(value);
    }

    private static String repetition(RunRecord r) {
        String name = r.folder().getFileName().toString();
        return name.startsWith("rep-") ? name.substring(4) : "";
    }

    private String html(Path out, Comparison comparison, String otherLabel) throws IOException {
        Scores scores = scores();
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
        if (accessModes().size() > 1) {
            AccessModes.html(h, out, cells, engines, scores.databases(), patterns, blobs, accessModes());
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
                String png = Charts.throughput(out, cells, engines, databases, pattern, blob);
                h.append("<img alt=\"throughput ")
                        .append(pattern)
                        .append(' ')
                        .append(blob)
                        .append(" B\" src=\"")
                        .append(png)
                        .append("\">");
            }
            if (Scores.LATENCY_PATTERNS.contains(pattern)) {
                for (int blob : blobs) {
                    String png = Charts.latency(out, cells, engines, databases, pattern, blob);
                    h.append("<img alt=\"read latency ")
                            .append(pattern)
                            .append(' ')
                            .append(blob)
                            .append(" B\" src=\"")
                            .append(png)
                            .append("\">");
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

    private void header(StringBuilder h) {
        RunRecord first = runs.get(0);
        long failed = cells.values().stream().filter(c -> !c.ok()).count();
        h.append("<table><tbody>");
        row(
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
        row(h, "machine", distinct(r -> r.host() + " (" + r.cores() + " cores)"));
        if (runs.stream().anyMatch(r -> r.calibration() != null)) {
            row(
                    h,
                    "its limits (bench calibrate)",
                    distinct(r -> r.calibration() == null ? "not measured" : Efficiency.limits(r.calibration())));
        }
        row(h, "engines", distinct(RunRecord::engineVersion));
        row(h, "databases", distinct(RunRecord::databaseVersion));
        row(h, "measured / warm-up", distinct(r -> r.durationSeconds() + " s / " + r.warmupSeconds() + " s"));
        row(
                h,
                "key space, parallelism, rate",
                distinct(r -> r.keys() + " keys, parallelism " + r.parallelism() + ", "
                        + (r.rate() > 0 ? r.rate() + " records/s" : "unthrottled")));
        row(h, "commit", distinct(r -> r.commit() == null ? "unknown" : r.commit()));
        row(
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
                    .append(esc(planned.missing().stream()
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
                    .append(esc(runs.stream()
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

    private static void row(StringBuilder h, String name, String value) {
        h.append("<tr><th class=\"l\">")
                .append(esc(name))
                .append("</th><td class=\"l\">")
                .append(esc(value))
                .append("</td></tr>");
    }

    private void points(StringBuilder h, Scores.Points points, int table) {
        Map<String, Map<String, Integer>> study = StudyReference.load().scores().get(table);
        h.append("<table><thead><tr><th class=\"l\">engine</th>");
        List<String> scored = databases.stream()
                .filter(d -> !d.equals(HARNESS_CEILING) && !beyondStudy().contains(d))
                .toList();
        scored.forEach(d -> h.append("<th>").append(esc(d)).append("</th>"));
        h.append("<th>total</th><th>study's total</th></tr></thead><tbody>");
        for (String engine : engines) {
            h.append("<tr><td class=\"l\">").append(esc(engine)).append("</td>");
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
                        databases.contains(HARNESS_CEILING)
                                ? " The noop runs (the harness's ceiling) are in the figures, not in the tables."
                                : "")
                .append(
                        beyondStudy().isEmpty()
                                ? ""
                                : " Not in the study, so not in these tables: " + esc(String.join(", ", beyondStudy()))
                                        + " (in the figures and under Every cell).")
                .append(unrankedNote())
                .append("</p>\n");
    }

    /** The line under every table that names what it left out because it was an emulator. */
    private String unrankedNote() {
        List<String> unranked = unranked();
        return unranked.isEmpty()
                ? ""
                : " <span class=\"bad\">Not ranked: " + esc(String.join(", ", unranked))
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
                    .append(esc(e.getKey().pattern()))
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
            if (best != null && unranked().contains(best.database())) {
                agree = esc(best.database()) + " not ranked here (emulator)";
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
                                ? "no: " + esc(best.database()) + " not measured here"
                                : "no: " + esc(best.database()) + " places " + place + " of " + measuredDatabases;
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
        return esc(r.database() + (table == 3 || table == 4 ? " / " + r.engine() : "")) + (r.emulated() ? "*" : "")
                + " "
                + String.format(Locale.ROOT, "%,.0f", r.value())
                + (r.half() > 0 ? String.format(Locale.ROOT, " ± %,.0f", r.half()) : "")
                + " " + unit + (r.tiedWithAbove() ? " <span class=\"tie\">(tie)</span>" : "");
    }

    private static String studyEntry(StudyReference.Entry e) {
        return esc(e.database() + (e.engine().isEmpty() ? "" : " / " + e.engine())) + " "
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
                            + esc(c.runs().stream()
                                    .filter(r -> !r.ok())
                                    .map(r -> r.status() + (r.error() == null ? "" : " (" + r.error() + ")"))
                                    .findFirst()
                                    .orElse(""))
                            + "</span>";
            h.append("<tr><td class=\"l\">")
                    .append(esc(c.key().engine()))
                    .append("</td><td class=\"l\">")
                    .append(esc(c.key().database()))
                    .append(c.emulated() ? "*" : "")
                    .append("</td><td class=\"l\">")
                    .append(esc(c.key().pattern()))
                    .append("</td><td>")
                    .append(c.key().blobBytes())
                    .append("</td><td class=\"l\">")
                    .append(esc(c.key().access()))
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
                    .append(withCeiling ? "</td><td>" + esc(ofCeiling(c)) : "")
                    .append("</td><td class=\"l\">")
                    .append(state)
                    .append("</td></tr>");
        }
        if (planned != null) {
            for (PlannedCells.Missing m : planned.missing()) {
                h.append("<tr><td class=\"l\">")
                        .append(esc(m.engine()))
                        .append("</td><td class=\"l\">")
                        .append(esc(m.database()))
                        .append("</td><td class=\"l\">")
                        .append(esc(m.pattern()))
                        .append("</td><td>")
                        .append(m.blobBytes())
                        .append("</td><td class=\"l\">")
                        .append(esc(m.access()))
                        .append("</td><td>0</td><td></td><td></td>" + (withCeiling ? "<td></td>" : "")
                                + "<td class=\"l\"><span class=\"bad\">NO RESULT: ")
                        .append(esc(m.state() + (m.reason() == null ? "" : " (" + m.reason() + ")")))
                        .append("</span></td></tr>");
            }
        }
        h.append("</tbody></table>\n");
    }

    private static List<String> ordered(List<RunRecord> runs, Function<RunRecord, String> f, List<String> order) {
        return runs.stream()
                .map(f)
                .distinct()
                .sorted(Comparator.comparingInt((String v) -> order.indexOf(v) < 0 ? order.size() : order.indexOf(v))
                        .thenComparing(Comparator.naturalOrder()))
                .toList();
    }

    private static String number(Double value) {
        return value == null ? "" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String field(String value) {
        if (value == null) {
            return "";
        }
        return value.contains(",") || value.contains("\"") || value.contains("\n")
                ? "\"" + value.replace("\"", "\"\"") + "\""
                : value;
    }

    /** A table row's first cells: the cell's engine, database, pattern, BLOB size and variant. */
    static void keyCells(StringBuilder h, Cell.Key key) {
        h.append("<td class=\"l\">")
                .append(esc(key.engine()))
                .append("</td><td class=\"l\">")
                .append(esc(key.database()))
                .append("</td><td class=\"l\">")
                .append(esc(key.pattern()))
                .append("</td><td>")
                .append(key.blobBytes())
                .append("</td><td class=\"l\">")
                .append(esc(key.access()))
                .append("</td>");
    }

    /** A value as a whole number with thousands separators: 12,345. */
    static String whole(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    static String esc(String text) {
        return text == null
                ? ""
                : text.replace("&", "&amp;")
                        .replace("<", "&lt;")
                        .replace(">", "&gt;")
                        .replace("\"", "&quot;");
    }
}
