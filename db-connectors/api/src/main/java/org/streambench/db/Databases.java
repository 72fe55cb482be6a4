package org.streambench.db;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;

/** The connectors on the classpath, by name. */
public final class Databases {

    private Databases() {}

    public static Map<String, DatabaseProvider> providers() {
        Map<String, DatabaseProvider> byName = new TreeMap<>();
        for (DatabaseProvider provider : ServiceLoader.load(DatabaseProvider.class, Databases.class.getClassLoader())) {
            byName.put(provider.name(), provider);
        }
        return byName;
    }

    /** Every connector, lowest {@link DatabaseProvider#order} first. */
    public static List<DatabaseProvider> inOrder() {
        return providers().values().stream()
                .sorted(Comparator.comparingInt(DatabaseProvider::order).thenComparing(DatabaseProvider::name))
                .toList();
    }

    /** The names of {@link #inOrder}. */
    public static List<String> names() {
        return inOrder().stream().map(DatabaseProvider::name).toList();
    }

    /** The databases the study measured, in its order: the matrix's default axis. */
    public static List<String> study() {
        return inOrder().stream()
                .filter(DatabaseProvider::inStudy)
                .map(DatabaseProvider::name)
                .toList();
    }

    /** Where a connector lists the JVM flags it needs, one a line (its {@code src/main/resources/}). */
    public static final String JVM_FLAGS_RESOURCE = "META-INF/streambench/jvm-flags";

    /**
     * The JVM flags that every JVM loading the connectors needs (e.g. a module opened to a client
     * that reaches into the JDK), each once: the engine jobs' and their YARN containers' get them
     * from the runner; {@code bench} and the tests' JVMs read the same files.
     */
    public static List<String> jvmFlags() {
        Set<String> flags = new LinkedHashSet<>();
        try {
            for (URL resource :
                    Collections.list(Databases.class.getClassLoader().getResources(JVM_FLAGS_RESOURCE))) {
                try (InputStream in = resource.openStream()) {
                    new String(in.readAllBytes(), StandardCharsets.UTF_8)
                            .lines()
                            .map(String::strip)
                            .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                            .forEach(flags::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(flags);
    }

    public static Optional<DatabaseProvider> provider(String name) {
        return Optional.ofNullable(providers().get(name));
    }

    /** Creates and opens the named connector. */
    public static Database open(String name, DatabaseSettings settings) {
        DatabaseProvider provider = provider(name)
                .orElseThrow(() -> new DatabaseException("no connector for database '" + name
                        + "' on this classpath; known: " + String.join(", ", names())));
        Database database = provider.create();
        database.open(settings);
        return database;
    }
}
