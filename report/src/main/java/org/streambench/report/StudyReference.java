package org.streambench.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The study's published Tables 1-4, as this project carries them (see SOURCE.md beside the CSV files). */
public record StudyReference(Map<Integer, Map<String, Map<String, Integer>>> scores, List<Entry> rankings) {

    /** A row of Table 3 or 4: {@code engine} is empty in Table 4. */
    public record Entry(
            int table,
            String pattern,
            int blobBytes,
            int rank,
            String database,
            String engine,
            double value,
            String unit) {}

    public static StudyReference load() {
        Map<Integer, Map<String, Map<String, Integer>>> scores = new LinkedHashMap<>();
        List<String[]> scoreRows = csv("paper-scores.csv");
        String[] header = scoreRows.get(0);
        for (String[] row : scoreRows.subList(1, scoreRows.size())) {
            Map<String, Integer> byDatabase = new LinkedHashMap<>();
            for (int i = 2; i < header.length; i++) {
                if (!header[i].equals("total")) {
                    byDatabase.put(header[i], Integer.parseInt(row[i]));
                }
            }
            scores.computeIfAbsent(Integer.parseInt(row[0]), t -> new LinkedHashMap<>())
                    .put(row[1], byDatabase);
        }
        List<Entry> rankings = new ArrayList<>();
        List<String[]> tableRows = csv("paper-tables.csv");
        for (String[] row : tableRows.subList(1, tableRows.size())) {
            rankings.add(new Entry(
                    Integer.parseInt(row[0]),
                    row[1],
                    Integer.parseInt(row[2]),
                    Integer.parseInt(row[3]),
                    row[4],
                    row[5],
                    Double.parseDouble(row[6]),
                    row[7]));
        }
        return new StudyReference(scores, rankings);
    }

    /** The study's entry of {@code table} at {@code rank} for a pattern and BLOB size, or null. */
    public Entry entry(int table, String pattern, int blobBytes, int rank) {
        return rankings.stream()
                .filter(e -> e.table() == table
                        && e.pattern().equals(pattern)
                        && e.blobBytes() == blobBytes
                        && e.rank() == rank)
                .findFirst()
                .orElse(null);
    }

    private static List<String[]> csv(String name) {
        try (InputStream in = StudyReference.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            List<String[]> rows = new ArrayList<>();
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))
                    .lines()
                    .filter(l -> !l.isBlank())
                    .forEach(l -> rows.add(l.split(",", -1)));
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
