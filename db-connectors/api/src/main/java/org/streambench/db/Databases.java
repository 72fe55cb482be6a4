package org.streambench.db;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
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
