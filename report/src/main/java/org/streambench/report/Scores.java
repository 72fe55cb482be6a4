package org.streambench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The study's Tables 1-4, computed as the study defines them. Two cells tie when their 95 %
 * confidence intervals overlap (across repetitions, or a single run's own from its per-second
 * samples, see {@link BatchMeans}); ties give a point to each, and a variant or a row whose winner
 * ties with another counts as tied, not decided.
 * <ul>
 * <li>Table 1: for every database x pattern x BLOB size, a point to the engine with the highest
 *     throughput, counted per engine and database.</li>
 * <li>Table 2: the same for the lowest read latency (read, update and mixed).</li>
 * <li>Table 3: per pattern x BLOB size, the database/engine combinations ranked by throughput.</li>
 * <li>Table 4: per pattern x BLOB size, the databases ranked by read latency, each database with
 *     its best engine's latency (the study did not name the engine).</li>
 * </ul>
 * A variant is scored from the cells that ran and verified; one with fewer than two of them is skipped
 * and counted as such.
 */
public final class Scores {

    public static final List<String> LATENCY_PATTERNS = List.of("read", "update", "mixed");

    /** A place in a ranking; {@code tiedWithAbove}: its interval overlaps the entry above it. */
    public record Ranked(
            int rank,
            String database,
            String engine,
            double value,
            double half,
            boolean tiedWithAbove,
            boolean emulated) {}

    public record PatternBlob(String pattern, int blobBytes) {}

    /**
     * Points per engine and database; {@code scored} and {@code skipped} count the variants, and of
     * the scored ones {@code decided} had one winner and {@code tied} more (within the noise).
     */
    public record Points(
            Map<String, Map<String, Integer>> byEngineAndDatabase, int scored, int skipped, int decided, int tied) {

        public int total(String engine) {
            return byEngineAndDatabase.getOrDefault(engine, Map.of()).values().stream()
                    .mapToInt(Integer::intValue)
                    .sum();
        }
    }

    private final Map<Cell.Key, Cell> cells;
    private final List<String> engines;
    private final List<String> databases;
    private final List<String> patterns;
    private final List<Integer> blobs;

    public Scores(
            Map<Cell.Key, Cell> cells,
            List<String> engines,
            List<String> databases,
            List<String> patterns,
            List<Integer> blobs) {
        this.cells = cells;
        this.engines = engines;
        this.databases = databases;
        this.patterns = patterns;
        this.blobs = blobs;
    }

    /** The databases ranked (real ones: no noop, no emulator unless asked). */
    public List<String> databases() {
        return databases;
    }

    public Points table1() {
        return points(patterns, c -> c.throughput(), Cell::throughputHalf, true);
    }

    public Points table2() {
        return points(
                patterns.stream().filter(LATENCY_PATTERNS::contains).toList(),
                c -> c.latency(),
                Cell::latencyHalf,
                false);
    }

    public Map<PatternBlob, List<Ranked>> table3() {
        Map<PatternBlob, List<Ranked>> table = new LinkedHashMap<>();
        for (String pattern : patterns) {
            for (int blob : blobs) {
                List<Cell> candidates = new ArrayList<>();
                for (String database : databases) {
                    for (String engine : engines) {
                        Cell cell = cells.get(new Cell.Key(engine, database, pattern, blob));
                        if (cell != null && cell.ok() && cell.throughput() != null) {
                            candidates.add(cell);
                        }
                    }
                }
                table.put(
                        new PatternBlob(pattern, blob), rank(candidates, Cell::throughput, Cell::throughputHalf, true));
            }
        }
        return table;
    }

    public Map<PatternBlob, List<Ranked>> table4() {
        Map<PatternBlob, List<Ranked>> table = new LinkedHashMap<>();
        for (String pattern :
                patterns.stream().filter(LATENCY_PATTERNS::contains).toList()) {
            for (int blob : blobs) {
                List<Cell> bestPerDatabase = new ArrayList<>();
                for (String database : databases) {
                    engines.stream()
                            .map(engine -> cells.get(new Cell.Key(engine, database, pattern, blob)))
                            .filter(c -> c != null && c.ok() && c.latency() != null)
                            .min(Comparator.comparingDouble(Cell::latency))
                            .ifPresent(bestPerDatabase::add);
                }
                table.put(
                        new PatternBlob(pattern, blob), rank(bestPerDatabase, Cell::latency, Cell::latencyHalf, false));
            }
        }
        return table;
    }

    private Points points(
            List<String> scoredPatterns,
            java.util.function.Function<Cell, Double> value,
            ToDoubleFunction<Cell> half,
            boolean higherIsBetter) {
        Map<String, Map<String, Integer>> points = new TreeMap<>();
        engines.forEach(e -> databases.forEach(
                d -> points.computeIfAbsent(e, k -> new LinkedHashMap<>()).put(d, 0)));
        int scored = 0;
        int skipped = 0;
        int decided = 0;
        for (String database : databases) {
            for (String pattern : scoredPatterns) {
                for (int blob : blobs) {
                    List<Cell> candidates = engines.stream()
                            .map(e -> cells.get(new Cell.Key(e, database, pattern, blob)))
                            .filter(c -> c != null && c.ok() && value.apply(c) != null)
                            .toList();
                    if (candidates.size() < 2) {
                        skipped++;
                        continue;
                    }
                    scored++;
                    Cell best = candidates.stream()
                            .max(Comparator.comparingDouble(c -> higherIsBetter ? value.apply(c) : -value.apply(c)))
                            .orElseThrow();
                    int winners = 0;
                    for (Cell c : candidates) {
                        if (c.equals(best)
                                || overlap(
                                        value.apply(c),
                                        half.applyAsDouble(c),
                                        value.apply(best),
                                        half.applyAsDouble(best))) {
                            points.get(c.key().engine()).merge(database, 1, Integer::sum);
                            winners++;
                        }
                    }
                    decided += winners == 1 ? 1 : 0;
                }
            }
        }
        return new Points(points, scored, skipped, decided, scored - decided);
    }

    private static List<Ranked> rank(
            List<Cell> candidates,
            java.util.function.Function<Cell, Double> value,
            ToDoubleFunction<Cell> half,
            boolean higherIsBetter) {
        List<Cell> sorted = new ArrayList<>(candidates);
        sorted.sort(Comparator.comparingDouble(c -> higherIsBetter ? -value.apply(c) : value.apply(c)));
        List<Ranked> ranked = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            Cell c = sorted.get(i);
            boolean tied = i > 0
                    && overlap(
                            value.apply(c),
                            half.applyAsDouble(c),
                            value.apply(sorted.get(i - 1)),
                            half.applyAsDouble(sorted.get(i - 1)));
            int rank = tied ? ranked.get(i - 1).rank() : i + 1;
            ranked.add(new Ranked(
                    rank,
                    c.key().database(),
                    c.key().engine(),
                    value.apply(c),
                    half.applyAsDouble(c),
                    tied,
                    c.emulated()));
        }
        return ranked;
    }

    /** Whether a ranking's first place is decided: nobody below it ties with it. */
    public static boolean firstPlaceDecided(List<Ranked> ranked) {
        return ranked.size() < 2 || !ranked.get(1).tiedWithAbove();
    }

    /**
     * The place of {@code database} among the databases of a ranking, by its best entry (databases
     * whose best entries tie share a place); 0 when it has no entry.
     */
    public static int databasePlace(List<Ranked> ranked, String database) {
        int best = ranked.stream()
                .filter(r -> r.database().equals(database))
                .mapToInt(Ranked::rank)
                .min()
                .orElse(0);
        if (best == 0) {
            return 0;
        }
        return 1
                + (int) ranked.stream()
                        .filter(r -> r.rank() < best)
                        .map(Ranked::database)
                        .distinct()
                        .count();
    }

    /**
     * How far this run's points agree with the study's: Spearman's rank correlation over the engine x
     * database pairs that both score, or NaN when fewer than three pairs do or either side's points
     * are all equal.
     */
    public static double pointsCorrelation(Points points, Map<String, Map<String, Integer>> study) {
        List<Double> ours = new ArrayList<>();
        List<Double> theirs = new ArrayList<>();
        points.byEngineAndDatabase()
                .forEach((engine, byDatabase) -> byDatabase.forEach((database, value) -> {
                    Integer reference = study.getOrDefault(engine, Map.of()).get(database);
                    if (reference != null) {
                        ours.add(value.doubleValue());
                        theirs.add(reference.doubleValue());
                    }
                }));
        if (ours.size() < 3) {
            return Double.NaN;
        }
        return rankCorrelation(
                ours.stream().mapToDouble(Double::doubleValue).toArray(),
                theirs.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** Spearman's rank correlation: Pearson's of the ranks, tied values sharing their mean rank; NaN when a side is constant. */
    static double rankCorrelation(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("series of " + a.length + " and " + b.length + " values");
        }
        double[] ra = ranks(a);
        double[] rb = ranks(b);
        double meanA = java.util.Arrays.stream(ra).average().orElse(0);
        double meanB = java.util.Arrays.stream(rb).average().orElse(0);
        double covariance = 0;
        double varianceA = 0;
        double varianceB = 0;
        for (int i = 0; i < ra.length; i++) {
            covariance += (ra[i] - meanA) * (rb[i] - meanB);
            varianceA += (ra[i] - meanA) * (ra[i] - meanA);
            varianceB += (rb[i] - meanB) * (rb[i] - meanB);
        }
        return varianceA == 0 || varianceB == 0 ? Double.NaN : covariance / Math.sqrt(varianceA * varianceB);
    }

    private static double[] ranks(double[] values) {
        double[] ranks = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            int below = 0;
            int equal = 0;
            for (double other : values) {
                below += other < values[i] ? 1 : 0;
                equal += other == values[i] ? 1 : 0;
            }
            ranks[i] = below + (equal + 1) / 2.0;
        }
        return ranks;
    }

    static boolean overlap(double a, double halfA, double b, double halfB) {
        return Math.abs(a - b) <= halfA + halfB;
    }
}
