package org.streambench.generator;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The four database access patterns of the study. */
public enum Pattern {
    /** Read existing entries by random key. */
    READ,
    /** Insert records whose keys do not exist yet, with no prior read. */
    INSERT,
    /** Read an existing entry, add the new values, write it back. */
    UPDATE,
    /** Half new keys (read misses, then insert), half existing keys (read, add, update). */
    MIXED;

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the key space must be prefilled before the run. */
    public boolean needsExistingKeys() {
        return this != INSERT;
    }

    /** Whether the operator reads before it writes (and so whether read latency is reported). */
    public boolean reads() {
        return this != INSERT;
    }

    public static Pattern parse(String text) {
        for (Pattern p : values()) {
            if (p.cliName().equalsIgnoreCase(text)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown pattern '" + text + "'; use one of " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(Pattern::cliName).collect(Collectors.joining(", "));
    }
}
