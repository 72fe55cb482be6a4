package org.streambench.db;

import java.util.List;
import java.util.Optional;

/**
 * Makes a database known by name: the registry of databases. A connector module registers its
 * provider in {@code META-INF/services/org.streambench.db.DatabaseProvider}; every list of databases
 * (help texts, the matrix's default axis, {@code bench db}, the tests) is derived from the
 * providers found (see docs/extending.md for the whole checklist).
 */
public interface DatabaseProvider {

    /** The name used on the command line, e.g. {@code postgresql}. */
    String name();

    /**
     * Where this database stands in every list of databases, lowest first. The study's five keep
     * the study's order (10 Cassandra, 20 HBase, 30 MongoDB, 40 PostgreSQL, 50 MariaDB); others come
     * after them by default.
     */
    default int order() {
        return 1000;
    }

    /** Whether the study measured this database: the default matrix runs these. */
    default boolean inStudy() {
        return false;
    }

    Database create();

    /**
     * The settings this connector reads (url, user, password, table, ...); a name ending in
     * {@code .*} stands for every key with that prefix. The runner refuses any other setting
     * before anything starts, so a typo is never silently ignored.
     */
    List<String> settingNames();

    default boolean knowsSetting(String key) {
        return settingNames().stream()
                .anyMatch(name ->
                        name.endsWith(".*") ? key.startsWith(name.substring(0, name.length() - 1)) : key.equals(name));
    }

    /**
     * Checks setting values that need no connection (identifier syntax, enumerations, the form
     * of a url the user gave), so a bad value is refused before a server is started; throws
     * {@link DatabaseException} saying how to fix it.
     */
    default void checkSettings(DatabaseSettings settings) {}

    /** False for connectors that store nothing (noop): verification has nothing to check. */
    default boolean storesData() {
        return true;
    }

    /** The database's own load tool, run by {@code bench ceiling}; empty when there is none yet. */
    default Optional<CeilingTool> ceilingTool() {
        return Optional.empty();
    }
}
