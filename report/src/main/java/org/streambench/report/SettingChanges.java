package org.streambench.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's section on settings, when its runs vary in key space, parallelism or connector
 * settings ({@link VariedSettings}): every cell beside the cell that differs from it in one of those
 * settings only, that setting at its baseline; throughput and mean read latency, and their ratios.
 */
final class SettingChanges {

    private SettingChanges() {}

    static void html(StringBuilder h, Map<Cell.Key, Cell> cells, VariedSettings varied) {
        h.append("<h2>Settings: what one changes</h2>\n<p>Each cell beside the cell that differs from it in one")
                .append(
                        " setting only, that setting at its baseline (the value most runs have; of equally common ones, the")
                .append(" smallest, or the connector's default). These compare")
                .append(" settings on one machine: a larger key space or parallelism here shares the same cores")
                .append(" and disk.</p>\n");
        h.append(
                        "<table><thead><tr><th class=\"l\">engine</th><th class=\"l\">database</th><th class=\"l\">pattern</th>")
                .append("<th>BLOB</th><th class=\"l\">variant</th><th class=\"l\">changed from</th>")
                .append("<th>throughput (records/s)</th><th>at the baseline</th><th>ratio</th>")
                .append("<th>read latency (µs)</th><th>at the baseline</th><th>ratio</th></tr></thead><tbody>");
        List<Cell> changed = cells.values().stream()
                .filter(c -> !c.runs().get(0).settingsVariant().isEmpty())
                .sorted(Cell.BY_KEY)
                .toList();
        for (Cell cell : changed) {
            RunRecord run = cell.runs().get(0);
            Map<VariedSettings.Setting, String> values = varied.of(run);
            values.forEach((setting, value) -> {
                String baseline = varied.baseline(setting);
                if (value.equals(baseline)) {
                    return;
                }
                Map<VariedSettings.Setting, String> atBaseline = new LinkedHashMap<>(values);
                atBaseline.put(setting, baseline);
                Cell.Key key = cell.key();
                Cell other = cells.get(new Cell.Key(
                        key.engine(),
                        key.database(),
                        key.pattern(),
                        key.blobBytes(),
                        run.variantWithSettings(varied.variant(atBaseline))));
                h.append("<tr>");
                Html.keyCells(h, key);
                h.append("<td class=\"l\">")
                        .append(Html.esc(VariedSettings.label(setting.name(), baseline)))
                        .append("</td>");
                compared(
                        h,
                        cell.ok() ? cell.throughput() : null,
                        other != null && other.ok() ? other.throughput() : null);
                compared(h, cell.ok() ? cell.latency() : null, other != null && other.ok() ? other.latency() : null);
                h.append("</tr>");
            });
        }
        h.append("</tbody></table>\n");
    }

    /** A value, its baseline's and their ratio; a blank where a side has none. */
    private static void compared(StringBuilder h, Double value, Double baseline) {
        h.append("<td>")
                .append(value == null ? "" : Html.whole(value))
                .append("</td><td>")
                .append(baseline == null ? "" : Html.whole(baseline))
                .append("</td><td>")
                .append(
                        value == null || baseline == null || baseline == 0
                                ? ""
                                : String.format(Locale.ROOT, "%.2fx", value / baseline))
                .append("</td>");
    }
}
