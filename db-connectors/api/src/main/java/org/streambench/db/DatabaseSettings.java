package org.streambench.db;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/** Connection settings of a connector: plain string keys and values (url, user, table, ...). */
public final class DatabaseSettings implements Serializable {

    private static final long serialVersionUID = 1L;

    private final TreeMap<String, String> values;

    public DatabaseSettings(Map<String, String> values) {
        this.values = new TreeMap<>(values);
    }

    public String get(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    public String require(String key, String databaseName) {
        String value = values.get(key);
        if (value == null || value.isBlank()) {
            throw new DatabaseException(databaseName + ": setting '" + key + "' is missing");
        }
        return value;
    }

    /**
     * The setting {@code key} (else {@code fallback}), which the connector puts into statements as
     * it is, so it must be a plain identifier of the database's {@code language} (e.g. "SQL").
     */
    public String identifier(String key, String fallback, String database, String language) {
        String name = get(key, fallback);
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new DatabaseException(database + ": " + key + " '" + name + "' must be a plain " + language
                    + " identifier (letters, digits, _; not a digit first)");
        }
        return name;
    }

    public Map<String, String> asMap() {
        return new TreeMap<>(values);
    }

    @Override
    public String toString() {
        Map<String, String> shown = asMap();
        shown.computeIfPresent("password", (k, v) -> "***");
        return shown.toString();
    }
}
