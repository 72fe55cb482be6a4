package org.streambench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.streambench.model.CapacityDocument;
import org.streambench.model.CapacityJson;

/**
 * The report of capacity searches (every capacity.json under a folder): per search a table of its
 * steps and the capacity per parallelism, a figure of capacity by parallelism (one series per
 * engine x database), and per search the records' end-to-end p99 against the offered rate, one
 * line per parallelism, with the objective drawn across.
 */
public final class CapacityReport {

    private final Path dir;
    private final List<CapacityDocument> searches;
    private final List<Path> files;

    private CapacityReport(Path dir, List<Path> files, List<CapacityDocument> searches) {
        this.dir = dir;
        this.files = files;
        this.searches = searches;
    }

    /** The capacity searches under {@code dir}; empty when there is none. */
    public static CapacityReport of(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(p -> p.getFileName().toString().equals(CapacityDocument.FILE))
                    .sorted()
                    .toList();
        }
        List<CapacityDocument> searches = new ArrayList<>();
        for (Path file : files) {
            searches.add(CapacityJson.read(file));
        }
        return new CapacityReport(dir, files, searches);
    }

    public boolean isEmpty() {
        return searches.isEmpty();
    }

    /** The folders of the searches: their runs are steps, not results of their own. */
    public List<Path> folders() {
        return files.stream().map(Path::getParent).toList();
    }

    /** Writes capacity.html and its figures into {@code out}; returns capacity.html. */
    public Path write(Path out) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(out);
        StringBuilder h = new StringBuilder();
        h.append(
                        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>streambench capacity</title>\n")
                .append(
                        "<style>body{font-family:sans-serif;margin:24px;max-width:1400px}table{border-collapse:collapse;")
                .append(
                        "margin:8px 0 20px}td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}th{background:#eee}")
                .append(
                        "td.l,th.l{text-align:left}.bad{color:#b00;font-weight:bold}.figs img{margin:4px;border:1px solid #ddd}")
                .append("</style></head><body>\n<h1>Capacity under a latency objective</h1>\n");
        h.append(
                        "<p>Each search: an unthrottled probe, then full runs at fixed rates; a step passes when at least 99 %")
                .append(" of its target was processed, the records' end-to-end p99 met the objective and the backlog")
                .append(" did not grow. The capacity is the highest rate that passed.</p>\n<div class=\"figs\">")
                .append("<img alt=\"capacity by parallelism\" src=\"")
                .append(capacityByParallelism(out))
                .append("\"></div>\n");
        for (int i = 0; i < searches.size(); i++) {
            CapacityDocument d = searches.get(i);
            String folder = dir.relativize(files.get(i).getParent()).toString();
            h.append("<h2>")
                    .append(Html.esc(label(d)))
                    .append("</h2>\n<p>")
                    .append(Html.esc(d.objective().description()))
                    .append("; at most ")
                    .append(d.bounds().maxSteps())
                    .append(" steps or ")
                    .append(d.bounds().maxSeconds())
                    .append(" s per parallelism.")
                    .append(folder.isEmpty() ? "" : " Folder: " + Html.esc(folder) + ".")
                    .append(" Started ")
                    .append(Html.esc(d.startedAt()))
                    .append(", commit ")
                    .append(Html.esc(d.commit()))
                    .append(".</p>\n<table><thead><tr><th>parallelism</th><th>unthrottled (records/s)</th>")
                    .append("<th>capacity (records/s)</th><th class=\"l\">stopped</th></tr></thead><tbody>");
            for (CapacityDocument.Search s : d.searches()) {
                h.append("<tr><td>")
                        .append(s.parallelism())
                        .append("</td><td>")
                        .append(String.format(Locale.ROOT, "%,.0f", s.probeThroughput()))
                        .append("</td><td>")
                        .append(
                                s.capacity() == null
                                        ? "<span class=\"bad\">no rate met the objective</span>"
                                        : String.format(Locale.ROOT, "%,.0f", s.capacity()))
                        .append("</td><td class=\"l\">")
                        .append(Html.esc(s.stopReason()))
                        .append("</td></tr>");
            }
            h.append("</tbody></table>\n<table><thead><tr><th>parallelism</th><th>step</th><th>target</th>")
                    .append("<th>processed</th><th>p50 (µs)</th><th>p99 (µs)</th><th>max (µs)</th><th class=\"l\">")
                    .append("verdict</th></tr></thead><tbody>");
            for (CapacityDocument.Search s : d.searches()) {
                int n = 0;
                for (CapacityDocument.Step step : s.steps()) {
                    h.append("<tr><td>")
                            .append(s.parallelism())
                            .append("</td><td>")
                            .append(++n)
                            .append("</td><td>")
                            .append(String.format(Locale.ROOT, "%,.0f", step.target()))
                            .append("</td><td>")
                            .append(String.format(Locale.ROOT, "%,.0f", step.achieved()))
                            .append("</td><td>")
                            .append(micros(step.p50Micros()))
                            .append("</td><td>")
                            .append(micros(step.p99Micros()))
                            .append("</td><td>")
                            .append(micros(step.maxMicros()))
                            .append("</td><td class=\"l\">")
                            .append(step.passed() ? "pass: " : "<span class=\"bad\">fail</span>: ")
                            .append(Html.esc(step.why()))
                            .append("</td></tr>");
                }
            }
            h.append("</tbody></table>\n<div class=\"figs\"><img alt=\"p99 by offered rate\" src=\"")
                    .append(latencyByRate(out, d, i))
                    .append("\"></div>\n");
        }
        h.append("</body></html>\n");
        Path tmp = out.resolve("capacity.html.tmp");
        Files.writeString(tmp, h.toString(), StandardCharsets.UTF_8);
        Files.move(
                tmp, out.resolve("capacity.html"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return out.resolve("capacity.html");
    }

    private String capacityByParallelism(Path out) throws IOException {
        CategoryChart chart = new CategoryChartBuilder()
                .width(900)
                .height(320 + 22 * searches.size()) // room for the legend, one line per search
                .title("Capacity by parallelism")
                .xAxisTitle("parallelism")
                .yAxisTitle("records/s")
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        List<String> levels = searches.stream()
                .flatMap(d -> d.searches().stream())
                .map(s -> Integer.toString(s.parallelism()))
                .distinct()
                .sorted((a, b) -> Integer.compare(Integer.parseInt(a), Integer.parseInt(b)))
                .toList();
        List<String> used = new ArrayList<>();
        for (int i = 0; i < searches.size(); i++) {
            CapacityDocument d = searches.get(i);
            String series = label(d);
            if (used.contains(series)) {
                series += " (" + dir.relativize(files.get(i).getParent()) + ")";
            }
            used.add(series);
            List<Double> values = new ArrayList<>();
            for (String level : levels) {
                values.add(d.searches().stream()
                        .filter(s -> Integer.toString(s.parallelism()).equals(level) && s.capacity() != null)
                        .map(CapacityDocument.Search::capacity)
                        .findFirst()
                        .orElse(0.0));
            }
            chart.addSeries(series, levels, values);
        }
        BitmapEncoder.saveBitmap(
                chart, out.resolve("capacity-by-parallelism").toString(), BitmapEncoder.BitmapFormat.PNG);
        return "capacity-by-parallelism.png";
    }

    private static String latencyByRate(Path out, CapacityDocument d, int index) throws IOException {
        XYChart chart = new XYChartBuilder()
                .width(640)
                .height(380)
                .title("End-to-end p99 by offered rate")
                .xAxisTitle("offered rate (records/s)")
                .yAxisTitle("p99 (ms)")
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        double maxRate = 0;
        for (CapacityDocument.Search s : d.searches()) {
            List<CapacityDocument.Step> measured = s.steps().stream()
                    .filter(step -> step.p99Micros() != null)
                    .sorted((a, b) -> Double.compare(a.target(), b.target()))
                    .toList();
            if (measured.isEmpty()) {
                continue;
            }
            chart.addSeries(
                    "parallelism " + s.parallelism(),
                    measured.stream().mapToDouble(CapacityDocument.Step::target).toArray(),
                    measured.stream()
                            .mapToDouble(step -> step.p99Micros() / 1000.0)
                            .toArray());
            maxRate = Math.max(maxRate, measured.get(measured.size() - 1).target());
        }
        if (maxRate > 0) {
            XYSeries objective = chart.addSeries("objective", new double[] {0, maxRate}, new double[] {
                d.objective().p99Micros() / 1000.0, d.objective().p99Micros() / 1000.0
            });
            objective.setMarker(SeriesMarkers.NONE);
        }
        String name = "capacity-p99-" + index;
        BitmapEncoder.saveBitmap(chart, out.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
        return name + ".png";
    }

    /** What was searched: the pipeline, the engine settings it ran with and the objective. */
    private static String label(CapacityDocument d) {
        StringBuilder label = new StringBuilder(
                d.engine() + " x " + d.database() + ", " + d.pattern() + ", " + d.blobBytes() + " B, " + d.access());
        if (d.engineSettings() != null) {
            d.engineSettings()
                    .forEach((key, value) ->
                            label.append(", ").append(key).append('=').append(value));
        }
        return label.append(", p99 <= ")
                .append(millis(d.objective().p99Micros()))
                .toString();
    }

    private static String millis(long micros) {
        return String.format(Locale.ROOT, "%.1f ms", micros / 1000.0);
    }

    private static String micros(Long value) {
        return value == null ? "" : String.format(Locale.ROOT, "%,d", value);
    }
}
