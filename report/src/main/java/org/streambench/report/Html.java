package org.streambench.report;

import java.util.Locale;

/** What every section of the report page writes the same way: escaped text, whole numbers, a cell's key, a header row. */
final class Html {

    private Html() {}

    static String esc(String text) {
        return text == null
                ? ""
                : text.replace("&", "&amp;")
                        .replace("<", "&lt;")
                        .replace(">", "&gt;")
                        .replace("\"", "&quot;");
    }

    /** A value as a whole number with thousands separators: 12,345. */
    static String whole(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
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

    /** A row of a two-column table: a name and its value. */
    static void row(StringBuilder h, String name, String value) {
        h.append("<tr><th class=\"l\">")
                .append(esc(name))
                .append("</th><td class=\"l\">")
                .append(esc(value))
                .append("</td></tr>");
    }
}
