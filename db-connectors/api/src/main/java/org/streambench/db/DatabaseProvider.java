package org.streambench.db;

/**
 * Makes a database known by name. A connector module registers its provider in
 * {@code META-INF/services/org.streambench.db.DatabaseProvider}; nothing else needs to change.
 */
public interface DatabaseProvider {

    /** The name used on the command line, e.g. {@code postgresql}. */
    String name();

    Database create();

    /** False for connectors that store nothing (noop): verification has nothing to check. */
    default boolean storesData() {
        return true;
    }
}
