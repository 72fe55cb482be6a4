package org.streambench.db;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

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
        return identifier(key, fallback, database, language, Set.of());
    }

    /** {@link #identifier(String, String, String, String)}, and not one of the language's {@code reserved} words (upper case). */
    public String identifier(String key, String fallback, String database, String language, Set<String> reserved) {
        String name = get(key, fallback);
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new DatabaseException(database + ": " + key + " '" + name + "' must be a plain " + language
                    + " identifier (letters, digits, _; not a digit first)");
        }
        if (reserved.contains(name.toUpperCase(Locale.ROOT))) {
            throw new DatabaseException(database + ": " + key + " '" + name + "' is a reserved word of " + database
                    + "'s " + language + "; choose another name");
        }
        return name;
    }

    /** The words of a resource file of {@code owner}'s package, one a line, '#' lines left out, in upper case. */
    public static Set<String> reservedWords(Class<?> owner, String resource) {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing beside " + owner.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .map(word -> word.toUpperCase(Locale.ROOT))
                    .collect(Collectors.toUnmodifiableSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
