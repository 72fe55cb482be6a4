package org.streambench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/**
 * The study's figures as PNG files: per pattern and BLOB size, throughput bars per database grouped
 * by engine; for read, update and mixed, read-latency bars with standard-deviation error bars.
 * A cell that failed or did not run has no bar (the tables beside each figure say which).
 */
final class Charts {

    private static final int WIDTH = 640;
    private static final int HEIGHT = 380;

    private Charts() {}

    static String throughput(
            Path dir, Map<Cell.Key, Cell> cells, List<String> engines, List<String> databases, String pattern, int blob)
            throws IOException {
        CategoryChart chart = chart("Throughput, " + pattern + ", " + blob + " B", "records/s");
        for (String engine : engines) {
            List<Double> values = new ArrayList<>();
            for (String database : databases) {
                Cell cell = cells.get(new Cell.Key(engine, database, pattern, blob));
                values.add(cell != null && cell.ok() ? cell.throughput() : 0.0);
            }
            chart.addSeries(engine, labels(databases, cells), values);
        }
        return save(dir, chart, "throughput-" + pattern + "-" + blob);
    }

    static String latency(
            Path dir, Map<Cell.Key, Cell> cells, List<String> engines, List<String> databases, String pattern, int blob)
            throws IOException {
        CategoryChart chart =
                chart("Read latency, " + pattern + ", " + blob + " B (error bars: standard deviation)", "microseconds");
        for (String engine : engines) {
            List<Double> values = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (String database : databases) {
                Cell cell = cells.get(new Cell.Key(engine, database, pattern, blob));
                boolean has = cell != null && cell.ok() && cell.latency() != null;
                values.add(has ? cell.latency() : 0.0);
                errors.add(has ? cell.latencyStddev() : 0.0);
            }
            chart.addSeries(engine, labels(databases, cells), values, errors);
        }
        return save(dir, chart, "latency-" + pattern + "-" + blob);
    }

    /** A value for each database (x) and access mode (a series). */
    interface ModeValue {
        double of(String database, String mode);
    }

    /** Bars per database, a series per access mode. */
    static String byMode(
            Path dir,
            String title,
            String yTitle,
            String file,
            List<String> databases,
            List<String> modes,
            ModeValue value)
            throws IOException {
        CategoryChart chart = chart(title, yTitle);
        for (String mode : modes) {
            List<Double> values = new ArrayList<>();
            for (String database : databases) {
                values.add(value.of(database, mode));
            }
            chart.addSeries(mode, databases, values);
        }
        return save(dir, chart, file);
    }

    /** A line per series through its (x, y) points, in the order given. */
    static String lines(
            Path dir, String title, String xTitle, String yTitle, String file, Map<String, double[][]> series)
            throws IOException {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle(xTitle)
                .yAxisTitle(yTitle)
                .build();
        style(chart.getStyler(), Styler.LegendPosition.OutsideS);
        series.forEach((name, points) -> chart.addSeries(name, points[0], points[1]));
        BitmapEncoder.saveBitmap(chart, dir.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
        return file + ".png";
    }

    /** Database names; an emulated one is marked with an asterisk. */
    private static List<String> labels(List<String> databases, Map<Cell.Key, Cell> cells) {
        return databases.stream()
                .map(d ->
                        cells.values().stream().anyMatch(c -> c.key().database().equals(d) && c.emulated())
                                ? d + " (emulator)*"
                                : d)
                .toList();
    }

    private static CategoryChart chart(String title, String yTitle) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .yAxisTitle(yTitle)
                .build();
        style(chart.getStyler(), Styler.LegendPosition.InsideNE);
        return chart;
    }

    /** Every figure's look: white, the y axis from 0, whole numbers with thousands separators. */
    private static void style(AxesChartStyler styler, Styler.LegendPosition legend) {
        styler.setLegendPosition(legend);
        styler.setYAxisMin(0.0);
        styler.setChartBackgroundColor(java.awt.Color.WHITE);
        styler.setDecimalPattern("#,##0");
    }

    private static String save(Path dir, CategoryChart chart, String name) throws IOException {
        BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
        return name + ".png";
    }
}
