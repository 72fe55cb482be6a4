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
            if (Integer.parseInt(value.trim()) >= 1) {
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
            if (Integer.parseInt(value.trim()) >= 0) {
                return;
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new IllegalArgumentException(
                "--engine-setting " + key + " '" + value + "' must be a whole number of at least 0");
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
