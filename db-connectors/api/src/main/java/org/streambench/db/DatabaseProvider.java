package org.streambench.db;

import java.util.List;

/**
 * Makes a database known by name. A connector module registers its provider in
 * {@code META-INF/services/org.streambench.db.DatabaseProvider}; nothing else needs to change.
 */
public interface DatabaseProvider {

    /** The name used on the command line, e.g. {@code postgresql}. */
    String name();

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
}
