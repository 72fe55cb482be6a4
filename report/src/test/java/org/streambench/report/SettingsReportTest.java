package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs that differ in key space, parallelism or a connector setting (a matrix's setting axes) are
 * cells of their own, never averaged together; Tables 1-4 rank the baselines' cells, and the
 * settings section sets each other cell beside the one that differs in that setting only.
 */
class SettingsReportTest {

    @Test
    void eachKeySpaceAndConnectorSettingIsACellComparedWithItsBaseline(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "read", 100, 1, "ok", 1000, 200.0);
        run(dir, "flink", "postgresql", "read", 100, 2, "ok", 400, 500.0);
        run(dir, "spark", "postgresql", "read", 100, 1, "ok", 800, 300.0);
        run(dir, "spark", "postgresql", "read", 100, 2, "ok", 700, 300.0);
        withSpec(dir.resolve("flink/postgresql/read/100/rep-2"), "\"keys\": 1000", "\"keys\": 1000000");
        withSpec(
                dir.resolve("spark/postgresql/read/100/rep-2"),
                "\"parallelism\": 1",
                "\"parallelism\": 1, \"databaseSettings\": {\"url\": \"jdbc:postgresql://h:1/x\", \"table\": \"t2\"}");

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        assertTrue(
                html.contains("postgresql / flink 1,000"),
                "the key space most runs have is the baseline, which the tables rank alone: " + html);
        String section = html.substring(html.indexOf("<h2>Settings: what one changes"));
        section = section.substring(0, section.indexOf("</table>"));
        assertTrue(
                section.contains("<td class=\"l\">sync, 1,000,000 keys</td><td class=\"l\">1,000 keys</td>"
                        + "<td>400</td><td>1,000</td><td>0.40x</td><td>500</td><td>200</td><td>2.50x</td>"),
                section);
        assertTrue(
                section.contains("<td class=\"l\">sync, table=t2</td><td class=\"l\">table at its default</td>"
                        + "<td>700</td><td>800</td><td>0.88x</td>"),
                "a connector setting against the connector's default; the url is where, not how: " + section);
        assertEquals(2, section.split("<tr><td").length - 1, section);
    }

    @Test
    void runsThatShareTheirSettingsHaveNoSectionAlsoWhenEachDatabaseHasItsOwn(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "read", 100, 1, "ok", 1000, 200.0);
        run(dir, "flink", "postgresql", "read", 100, 2, "ok", 400, 500.0);
        run(dir, "flink", "cassandra", "read", 100, 1, "ok", 700, 300.0);
        withSpec(
                dir.resolve("flink/cassandra/read/100/rep-1"),
                "\"parallelism\": 1",
                "\"parallelism\": 1, \"databaseSettings\": {\"localDatacenter\": \"datacenter1\"}");
        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        assertFalse(html.contains("Settings: what one changes"), html);
    }

    private static void withSpec(Path folder, String field, String replacement) throws Exception {
        Path file = folder.resolve("result.json");
        String json = Files.readString(file);
        assertTrue(json.contains(field), json);
        Files.writeString(file, json.replace(field, replacement));
    }
}
