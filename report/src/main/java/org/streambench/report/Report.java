package org.streambench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.streambench.model.AccessModeName;
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
                .sorted(Comparator.comparing((String mode) -> !mode.equals(AccessModeName.SYNC))
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

    Path dir() {
        return dir;
    }

    List<String> engines() {
        return engines;
    }

    List<String> databases() {
        return databases;
    }

    List<String> patterns() {
        return patterns;
    }

    List<Integer> blobs() {
        return blobs;
    }

    VariedSettings varied() {
        return varied;
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
        ResultsCsv.write(out.resolve("results.csv"), dir, runs);
        Path tmp = out.resolve("index.html.tmp");
        if (comparison != null) {
            comparison.writeCsv(out.resolve("comparison.csv"));
        }
        Files.writeString(tmp, new ReportPage(this).html(out, comparison, otherLabel), StandardCharsets.UTF_8);
        Files.move(tmp, out.resolve("index.html"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return out.resolve("index.html");
    }

    private static List<String> ordered(List<RunRecord> runs, Function<RunRecord, String> f, List<String> order) {
        return runs.stream()
                .map(f)
                .distinct()
                .sorted(Comparator.comparingInt((String v) -> order.indexOf(v) < 0 ? order.size() : order.indexOf(v))
                        .thenComparing(Comparator.naturalOrder()))
                .toList();
    }
}
