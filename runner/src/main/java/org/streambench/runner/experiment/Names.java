package org.streambench.runner.experiment;

import java.util.Iterator;
import org.streambench.db.Databases;
import org.streambench.servers.LocalServers;

/**
 * The names that help texts list ({@code ${COMPLETION-CANDIDATES}}), from the registries of
 * engines, databases and local servers: a new engine or database appears in them by itself.
 */
public final class Names {

    private Names() {}

    public static final class EngineNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Engines.names().iterator();
        }
    }

    public static final class DatabaseNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Databases.names().iterator();
        }
    }

    public static final class LocalServerNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return LocalServers.supported().iterator();
        }
    }
}
