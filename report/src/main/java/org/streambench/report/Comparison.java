package org.streambench.report;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.streambench.model.RunDocument;

/**
 * How far two reports agree, cell by cell and ranking by ranking: per-cell throughput and read
 * latency ratios (this / other), whether the same engine is fastest in each database x pattern x
 * BLOB size and the same database best in each pattern x BLOB size, and the rank correlations of
 * Tables 1-2's points and of each variant's database order. Both sides rank as their reports do
 * (an emulator left out unless asked), so the counts are over what both rank.
 */
public final class Comparison {

    /**
     * What a record cost, set side by side where both reports recorded it: CPU-seconds per million
     * records of each role (result.json's resources) and of the machines seen through exporters.
     */
    record Cost(String label, String csvName, Function<RunRecord, Double> perRecord) {}

    static final List<Cost> COSTS = List.of(
            new Cost("database", "databaseCpuRatio", r -> r.cpuSecondsPerMillionRecords("database")),
            new Cost("engine", "engineCpuRatio", r -> r.cpuSecondsPerMillionRecords("engine")),
            new Cost("runner", "runnerCpuRatio", r -> r.cpuSecondsPerMillionRecords("runner")),
            new Cost(
                    "exporters' machines",
                    "exportersMachinesCpuRatio",
                    RunRecord::exportersBusyCpuSecondsPerMillionRecords));

    /**
     * One cell that both reports measured (ok): its values here and there, and per {@link Cost}
     * label the ratio (this / other) of the CPU-seconds per record where both recorded them.
     */
    public record Pair(
            Cell.Key key,
            double throughput,
            double otherThroughput,
            Double latency,
            Double otherLatency,
            Map<String, Double> cpuRatios) {

        public double throughputRatio() {
            return throughput / otherThroughput;
        }

        public Double latencyRatio() {
            return latency == null || otherLatency == null || otherLatency == 0 ? null : latency / otherLatency;
        }
    }

    /** How many of {@code of} variants agree. */
    public record Agreement(int same, int of) {}

    private final List<Pair> pairs = new ArrayList<>();
    private final Agreement fastestEngine;
    private final Agreement bestDatabaseByThroughput;
    private final Agreement bestDatabaseByLatency;
    private final double table1Correlation;
    private final double table2Correlation;
    private final double databaseOrderByThroughput;
    private final double databaseOrderByLatency;
    /** Each side's machine limits (bench calibrate), or null where its runs carry none. */
    private final RunDocument.Calibration ourMachine;

    private final RunDocument.Calibration theirMachine;

    private Comparison(Report ours, Report theirs) {
        ourMachine = machine(ours);
        theirMachine = machine(theirs);
        Map<Cell.Key, Cell> other = theirs.cells();
        ours.cells().forEach((key, cell) -> {
            Cell there = other.get(key);
            if (cell.ok() && there != null && there.ok() && cell.throughput() != null && there.throughput() != null) {
                pairs.add(new Pair(
                        key,
                        cell.throughput(),
                        there.throughput(),
                        cell.latency(),
                        there.latency(),
                        cpuRatios(cell, there)));
            }
        });
        Scores a = ours.scores();
        Scores b = theirs.scores();
        fastestEngine = fastestEngines(a, b);
        bestDatabaseByThroughput = sameWinners(a.table3(), b.table3());
        bestDatabaseByLatency = sameWinners(a.table4(), b.table4());
        table1Correlation = pointsCorrelation(a.table1(), b.table1());
        table2Correlation = pointsCorrelation(a.table2(), b.table2());
        databaseOrderByThroughput = medianOrderCorrelation(a.table3(), b.table3());
        databaseOrderByLatency = medianOrderCorrelation(a.table4(), b.table4());
    }

    private static Map<String, Double> cpuRatios(Cell cell, Cell there) {
        Map<String, Double> ratios = new LinkedHashMap<>();
        for (Cost cost : COSTS) {
            Double here = cell.meanOverOkRuns(cost.perRecord());
            Double other = there.meanOverOkRuns(cost.perRecord());
            if (here != null && other != null && other > 0) {
                ratios.put(cost.label(), here / other);
            }
        }
        return ratios;
    }

    /**
     * Per {@link Cost} that both reports recorded in at least one cell, the median ratio (this /
     * other) of the CPU-seconds per record: near 1 where the throughput ratio is far from it, the
     * systems did the same work per record and the machines' speed made the difference.
     */
    public Map<String, Double> medianCpuRatios() {
        Map<String, Double> medians = new LinkedHashMap<>();
        for (Cost cost : COSTS) {
            List<Double> ratios = pairs.stream()
                    .map(p -> p.cpuRatios().get(cost.label()))
                    .filter(Objects::nonNull)
                    .toList();
            if (!ratios.isEmpty()) {
                medians.put(cost.label(), medianMinMax(ratios)[0]);
            }
        }
        return medians;
    }

    /** The calibration of the report's runs: the most recent one they carry (a matrix runs on one machine). */
    private static RunDocument.Calibration machine(Report report) {
        return report.runs().stream()
                .map(RunRecord::calibration)
                .filter(Objects::nonNull)
                .max(Comparator.comparing(RunDocument.Calibration::measuredAt))
                .orElse(null);
    }

    /**
     * The two machines' own limits side by side, with this machine's over the other's; null unless
     * both sides were calibrated. A throughput ratio near the synced-writes ratio for the patterns
     * that commit every record says the machines, not the systems, made the difference.
     */
    public String machines() {
        if (ourMachine == null || theirMachine == null) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "synced 8 KB writes/s %,.0f / %,.0f (%.2fx), one core sorts %.1f / %.1f M longs/s (%.2fx)",
                ourMachine.syncedWritesPerSecond(),
                theirMachine.syncedWritesPerSecond(),
                ourMachine.syncedWritesPerSecond() / theirMachine.syncedWritesPerSecond(),
                ourMachine.sortedMillionsPerSecond(),
                theirMachine.sortedMillionsPerSecond(),
                ourMachine.sortedMillionsPerSecond() / theirMachine.sortedMillionsPerSecond());
    }

    public static Comparison of(Report ours, Report theirs) {
        return new Comparison(ours, theirs);
    }

    public List<Pair> pairs() {
        return pairs;
    }

    /** The median, lowest and highest throughput ratio of the cells both measured. */
    public double[] throughputRatios() {
        return medianMinMax(pairs.stream().map(Pair::throughputRatio).toList());
    }

    public double medianLatencyRatio() {
        return medianMinMax(
                pairs.stream().map(Pair::latencyRatio).filter(Objects::nonNull).toList())[0];
    }

    /** The median throughput ratio of the cells of each value of {@code by} (engine, database). */
    public Map<String, Double> medianThroughputRatioBy(Function<Cell.Key, String> by) {
        Map<String, List<Double>> groups = new LinkedHashMap<>();
        pairs.forEach(p -> groups.computeIfAbsent(by.apply(p.key()), k -> new ArrayList<>())
                .add(p.throughputRatio()));
        Map<String, Double> medians = new LinkedHashMap<>();
        groups.forEach((k, v) -> medians.put(k, medianMinMax(v)[0]));
        return medians;
    }

    public Agreement fastestEngine() {
        return fastestEngine;
    }

    public Agreement bestDatabaseByThroughput() {
        return bestDatabaseByThroughput;
    }

    public Agreement bestDatabaseByLatency() {
        return bestDatabaseByLatency;
    }

    /** Spearman's correlation of the two reports' Table 1 (throughput) or Table 2 (latency) points. */
    public double pointsCorrelation(int table) {
        return table == 1 ? table1Correlation : table2Correlation;
    }

    /** The median over the variants of the correlation of the two database orders (each database by its best entry). */
    public double databaseOrderCorrelation(boolean throughput) {
        return throughput ? databaseOrderByThroughput : databaseOrderByLatency;
    }

    /** The same fastest engine (strictly the highest mean, as the runs' numbers say) per database x pattern x BLOB size. */
    private static Agreement fastestEngines(Scores a, Scores b) {
        Map<String, String> fastestHere = fastest(a);
        Map<String, String> fastestThere = fastest(b);
        int same = 0;
        int of = 0;
        for (Map.Entry<String, String> e : fastestHere.entrySet()) {
            String there = fastestThere.get(e.getKey());
            if (there != null) {
                of++;
                same += there.equals(e.getValue()) ? 1 : 0;
            }
        }
        return new Agreement(same, of);
    }

    /** Per database|pattern|blob, the engine with the highest throughput among the ranked entries of Table 3. */
    private static Map<String, String> fastest(Scores scores) {
        Map<String, String> fastest = new LinkedHashMap<>();
        scores.table3().forEach((variant, ranked) -> {
            Map<String, Scores.Ranked> bestByDatabase = new LinkedHashMap<>();
            ranked.forEach(r -> bestByDatabase.merge(r.database(), r, (x, y) -> x.value() >= y.value() ? x : y));
            bestByDatabase.forEach((database, best) -> {
                long engines = ranked.stream()
                        .filter(r -> r.database().equals(database))
                        .count();
                if (engines >= 2) {
                    fastest.put(database + "|" + variant.pattern() + "|" + variant.blobBytes(), best.engine());
                }
            });
        });
        return fastest;
    }

    private static Agreement sameWinners(
            Map<Scores.PatternBlob, List<Scores.Ranked>> a, Map<Scores.PatternBlob, List<Scores.Ranked>> b) {
        int same = 0;
        int of = 0;
        for (Map.Entry<Scores.PatternBlob, List<Scores.Ranked>> e : a.entrySet()) {
            List<Scores.Ranked> there = b.get(e.getKey());
            if (!e.getValue().isEmpty() && there != null && !there.isEmpty()) {
                of++;
                same += e.getValue().get(0).database().equals(there.get(0).database()) ? 1 : 0;
            }
        }
        return new Agreement(same, of);
    }

    private static double pointsCorrelation(Scores.Points a, Scores.Points b) {
        List<Double> here = new ArrayList<>();
        List<Double> there = new ArrayList<>();
        a.byEngineAndDatabase()
                .forEach((engine, byDatabase) -> byDatabase.forEach((database, points) -> {
                    Integer other = b.byEngineAndDatabase()
                            .getOrDefault(engine, Map.of())
                            .get(database);
                    if (other != null) {
                        here.add(points.doubleValue());
                        there.add(other.doubleValue());
                    }
                }));
        return here.size() < 3
                ? Double.NaN
                : Scores.rankCorrelation(
                        here.stream().mapToDouble(Double::doubleValue).toArray(),
                        there.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** Per variant, the databases ordered by their best entry in each report; Spearman over those both rank; the median. */
    private static double medianOrderCorrelation(
            Map<Scores.PatternBlob, List<Scores.Ranked>> a, Map<Scores.PatternBlob, List<Scores.Ranked>> b) {
        List<Double> correlations = new ArrayList<>();
        for (Map.Entry<Scores.PatternBlob, List<Scores.Ranked>> e : a.entrySet()) {
            Map<String, Double> here = bestByDatabase(e.getValue());
            Map<String, Double> there = bestByDatabase(b.getOrDefault(e.getKey(), List.of()));
            List<String> both =
                    here.keySet().stream().filter(there::containsKey).toList();
            if (both.size() >= 3) {
                double correlation = Scores.rankCorrelation(
                        both.stream().mapToDouble(here::get).toArray(),
                        both.stream().mapToDouble(there::get).toArray());
                if (!Double.isNaN(correlation)) {
                    correlations.add(correlation);
                }
            }
        }
        return correlations.isEmpty() ? Double.NaN : medianMinMax(correlations)[0];
    }

    /** Each database's best place in a ranking, as a number that orders them (lower is better). */
    private static Map<String, Double> bestByDatabase(List<Scores.Ranked> ranked) {
        Map<String, Double> best = new LinkedHashMap<>();
        for (int i = 0; i < ranked.size(); i++) {
            best.putIfAbsent(ranked.get(i).database(), (double) i);
        }
        return best;
    }

    /** {median, min, max}; NaN for an empty list. The median of an even count is the mean of the middle two. */
    static double[] medianMinMax(List<Double> values) {
        if (values.isEmpty()) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new double[] {median, sorted.get(0), sorted.get(n - 1)};
    }

    /** The figures in one line, for the console. */
    public String summary() {
        double[] ratio = throughputRatios();
        Map<String, Double> cpu = medianCpuRatios();
        return String.format(
                        Locale.ROOT,
                        "compared over %d cells: throughput ratio median %.2f (%.2f-%.2f), read latency ratio median %.2f;"
                                + " same fastest engine in %d of %d, same best database in %d of %d (throughput) and %d of %d"
                                + " (latency); points correlate %s (Table 1) and %s (Table 2); database orders %s and %s",
                        pairs.size(),
                        ratio[0],
                        ratio[1],
                        ratio[2],
                        medianLatencyRatio(),
                        fastestEngine.same(),
                        fastestEngine.of(),
                        bestDatabaseByThroughput.same(),
                        bestDatabaseByThroughput.of(),
                        bestDatabaseByLatency.same(),
                        bestDatabaseByLatency.of(),
                        number(table1Correlation),
                        number(table2Correlation),
                        number(databaseOrderByThroughput),
                        number(databaseOrderByLatency))
                + (machines() == null ? "" : "; machines (this / other): " + machines())
                + (cpu.isEmpty() ? "" : "; CPU-s per record ratio median " + byGroup(cpu));
    }

    /** comparison.csv: one row per cell both measured. */
    void writeCsv(Path file) throws IOException {
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            csv.println("engine,database,pattern,blobBytes,throughput,otherThroughput,throughputRatio,"
                    + "readLatencyMeanMicros,otherReadLatencyMeanMicros,readLatencyRatio,"
                    + String.join(",", COSTS.stream().map(Cost::csvName).toList()));
            pairs.stream()
                    .sorted(Comparator.comparing((Pair p) -> p.key().database())
                            .thenComparing(p -> p.key().engine())
                            .thenComparing(p -> p.key().pattern())
                            .thenComparingInt(p -> p.key().blobBytes()))
                    .forEach(p -> {
                        List<String> row = new ArrayList<>(List.of(
                                p.key().engine(),
                                p.key().database(),
                                p.key().pattern(),
                                Integer.toString(p.key().blobBytes()),
                                format(p.throughput()),
                                format(p.otherThroughput()),
                                format(p.throughputRatio()),
                                p.latency() == null ? "" : format(p.latency()),
                                p.otherLatency() == null ? "" : format(p.otherLatency()),
                                p.latencyRatio() == null ? "" : format(p.latencyRatio())));
                        for (Cost cost : COSTS) {
                            Double ratio = p.cpuRatios().get(cost.label());
                            row.add(ratio == null ? "" : format(ratio));
                        }
                        csv.println(String.join(",", row));
                    });
        }
    }

    /** The comparison as a section of the report page. */
    void html(StringBuilder h, String otherLabel) {
        double[] ratio = throughputRatios();
        Map<String, Double> cpu = medianCpuRatios();
        h.append("<h2>Compared with ").append(Html.esc(otherLabel)).append("</h2>\n<table><tbody>");
        Html.row(h, "cells both measured", Integer.toString(pairs.size()));
        Html.row(
                h,
                "the machines' own limits (this / other)",
                machines() == null ? "not calibrated on both sides (bench calibrate)" : machines());
        Html.row(
                h,
                "throughput ratio (this / other)",
                String.format(Locale.ROOT, "median %.2f (%.2f-%.2f)", ratio[0], ratio[1], ratio[2]));
        Html.row(h, "by engine", byGroup(medianThroughputRatioBy(Cell.Key::engine)));
        Html.row(h, "by database", byGroup(medianThroughputRatioBy(Cell.Key::database)));
        Html.row(h, "read latency ratio", String.format(Locale.ROOT, "median %.2f", medianLatencyRatio()));
        Html.row(
                h,
                "CPU-seconds per record ratio (median)",
                cpu.isEmpty() ? "not recorded on both sides (result.json's resources)" : byGroup(cpu));
        Html.row(
                h,
                "same fastest engine",
                fastestEngine.same() + " of " + fastestEngine.of() + " database x pattern x BLOB sizes");
        Html.row(
                h,
                "same best database",
                bestDatabaseByThroughput.same() + " of " + bestDatabaseByThroughput.of() + " by throughput, "
                        + bestDatabaseByLatency.same() + " of " + bestDatabaseByLatency.of() + " by read latency");
        Html.row(
                h,
                "rank correlation of Tables 1 / 2's points",
                number(table1Correlation) + " / " + number(table2Correlation));
        Html.row(
                h,
                "rank correlation of the database orders (median over variants)",
                number(databaseOrderByThroughput) + " (throughput) / " + number(databaseOrderByLatency) + " (latency)");
        h.append("</tbody></table>\n<p>Cell by cell: <a href=\"comparison.csv\">comparison.csv</a>.</p>\n");
    }

    private static String byGroup(Map<String, Double> medians) {
        List<String> parts = new ArrayList<>();
        medians.forEach((k, v) -> parts.add(String.format(Locale.ROOT, "%s %.2f", k, v)));
        return String.join(", ", parts);
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.4f", value);
    }
}
