package org.streambench.operators.engine;

import java.util.List;
import java.util.Map;

/** Checks of engine settings that several engines share; each throws {@link IllegalArgumentException} for the user. */
public final class Settings {

    private Settings() {}

    /** The setting {@code key}, when present, must be a positive whole number. */
    public static void requirePositiveInt(Map<String, String> settings, String key) {
        String value = settings.get(key);
        if (value == null) {
            return;
        }
        try {
            if (asciiInt(value) >= 1) {
                return;
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new IllegalArgumentException(
                "--engine-setting " + key + " '" + value + "' must be a positive whole number");
    }

    /** The setting {@code key}, when present, must be a whole number of at least 0. */
    public static void requireNonNegativeInt(Map<String, String> settings, String key) {
        String value = settings.get(key);
        if (value == null) {
            return;
        }
        try {
            if (asciiInt(value) >= 0) {
                return;
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new IllegalArgumentException(
                "--engine-setting " + key + " '" + value + "' must be a whole number of at least 0");
    }

    /** A whole number in ASCII digits (Java's parsing alone also takes other scripts' digits). */
    private static int asciiInt(String value) {
        String trimmed = value.trim();
        if (!trimmed.matches("[+-]?[0-9]{1,10}")) {
            throw new NumberFormatException(value);
        }
        return Integer.parseInt(trimmed);
    }

    /** The setting {@code key}, when present, must be one of {@code allowed}. */
    public static void requireOneOf(Map<String, String> settings, String key, List<String> allowed) {
        String value = settings.get(key);
        if (value != null && !allowed.contains(value)) {
            throw new IllegalArgumentException("--engine-setting " + key + " '" + value + "' must be "
                    + String.join(", ", allowed.subList(0, allowed.size() - 1)) + " or "
                    + allowed.get(allowed.size() - 1));
        }
    }
}
