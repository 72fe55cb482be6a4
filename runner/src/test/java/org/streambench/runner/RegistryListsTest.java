package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.streambench.db.Databases;
import org.streambench.local.Home;
import org.streambench.runner.experiment.Engines;
import org.streambench.servers.LocalServers;

/**
 * Lists of engines and databases come from the registries and are spelled nowhere else: the
 * registries find every engine folder and database folder, in their documented order, and no
 * main source file names two engines or two databases in one statement's string literals (what a
 * hard-coded list looks like); a thing's own folder may name itself.
 */
class RegistryListsTest {

    private static final Pattern STRING_LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    @Test
    void theRegistriesFindEveryEngineAndDatabaseFolderInTheirOrder() throws IOException {
        List<String> engineFolders = new ArrayList<>();
        try (Stream<Path> folders = Files.list(Home.root())) {
            folders.filter(folder -> Files.isRegularFile(folder.resolve(Path.of(
                            "src",
                            "main",
                            "resources",
                            "META-INF",
                            "services",
                            "org.streambench.operators.engine.EngineProvider"))))
                    .forEach(folder -> engineFolders.add(folder.getFileName().toString()));
        }
        assertEquals(engineFolders.size(), Engines.all().size(), "an engine for every engine folder: " + engineFolders);
        Engines.all().forEach(engine -> assertTrue(engineFolders.contains(engine.module()), engine.module()));
        assertEquals(Engines.study(), Engines.names().subList(0, Engines.study().size()), "the study's first");

        List<String> databaseFolders = new ArrayList<>();
        try (Stream<Path> folders = Files.list(Home.root().resolve("db-connectors"))) {
            folders.filter(folder -> Files.isDirectory(folder.resolve("connector")))
                    .forEach(folder -> databaseFolders.add(folder.getFileName().toString()));
        }
        assertEquals(
                new TreeSet<>(databaseFolders),
                new TreeSet<>(Databases.names().stream()
                        .filter(d -> !d.equals("noop"))
                        .toList()),
                "a connector for every database folder");
        assertEquals(
                new TreeSet<>(databaseFolders),
                new TreeSet<>(LocalServers.supported()),
                "a local server for every database folder");
        assertEquals(
                Databases.study(),
                Databases.names().subList(0, Databases.study().size()),
                "the study's first");
    }

    /** The tests' JVMs get the connectors' JVM flags from the parent POM; it must name every one. */
    @Test
    void theTestJvmsGetEveryFlagTheConnectorsAskFor() throws IOException {
        String pom = Files.readString(Home.root().resolve("pom.xml"));
        Matcher property = Pattern.compile("<streambench.connectorJvmFlags>(.*)</streambench.connectorJvmFlags>")
                .matcher(pom);
        assertTrue(property.find(), "the parent POM sets streambench.connectorJvmFlags");
        List<String> given = Stream.of(property.group(1).trim().split("\\s+"))
                .filter(flag -> !flag.isEmpty())
                .toList();
        assertEquals(
                new TreeSet<>(Databases.jvmFlags()), new TreeSet<>(given), "the POM's flags, the connectors' files");
    }

    @Test
    void noMainSourceFileSpellsAListOfEnginesOrDatabases() throws IOException {
        List<String> violations = new ArrayList<>();
        for (Path file : mainSources()) {
            String path = Home.root().relativize(file).toString();
            String code = withoutComments(Files.readString(file));
            for (String statement : code.split(";")) {
                check(path, statement, Engines.names(), violations);
                check(path, statement, Databases.names(), violations);
            }
        }
        assertTrue(violations.isEmpty(), "lists of names outside the registries:\n" + String.join("\n", violations));
    }

    /** A statement whose string literals name two or more of {@code names}, other than its own folder's. */
    private static void check(String path, String statement, List<String> names, List<String> violations) {
        Set<String> named = new TreeSet<>();
        Matcher literal = STRING_LITERAL.matcher(statement);
        while (literal.find()) {
            for (String name : names) {
                if (Pattern.compile("\\b" + Pattern.quote(name) + "\\b")
                                .matcher(literal.group(1))
                                .find()
                        && !ownFolder(path, name)) {
                    named.add(name);
                }
            }
        }
        if (named.size() >= 2) {
            violations.add(path + ": " + named + " in: " + statement.strip().replaceAll("\\s+", " "));
        }
    }

    private static boolean ownFolder(String path, String name) {
        return path.startsWith("db-connectors/" + name + "/")
                || Engines.all().stream()
                        .anyMatch(engine -> engine.name().equals(name) && path.startsWith(engine.module() + "/"));
    }

    static String withoutComments(String code) {
        return code.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("(?m)^\\s*//.*$", "");
    }

    private static List<Path> mainSources() throws IOException {
        try (Stream<Path> files = Files.walk(Home.root())) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> file.toString().contains("/src/main/java/"))
                    .filter(file -> !file.toString().contains("/target/"))
                    .filter(file -> !Home.root().relativize(file).startsWith("work"))
                    .sorted()
                    .toList();
        }
    }
}
