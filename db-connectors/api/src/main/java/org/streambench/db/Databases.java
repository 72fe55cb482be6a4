package org.streambench.db;

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

    public static Optional<DatabaseProvider> provider(String name) {
        return Optional.ofNullable(providers().get(name));
    }

    /** Creates and opens the named connector. */
    public static Database open(String name, DatabaseSettings settings) {
        DatabaseProvider provider = provider(name)
                .orElseThrow(() ->
                        new DatabaseException("no connector for database '" + name + "' on this classpath; known: "
                                + String.join(", ", providers().keySet())));
        Database database = provider.create();
        database.open(settings);
        return database;
    }
}
