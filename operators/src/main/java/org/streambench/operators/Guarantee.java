package org.streambench.operators;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a run's pipeline promises about each record's effect on the database when a part of it
 * fails: {@code none}, a failure fails the run (the study's setting, and the default);
 * {@code at-least-once}, the engine recovers from its last checkpoint and replays what came after
 * it, so an effect may be applied twice, never lost; {@code exactly-once}, each effect applied once.
 */
public enum Guarantee {
    NONE,
    AT_LEAST_ONCE,
    EXACTLY_ONCE;

    /** The name on the command line and in result files: none, at-least-once, exactly-once. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public boolean recovers() {
        return this != NONE;
    }

    /** Parses {@link #cliName}; throws {@link IllegalArgumentException} with a line for the user. */
    public static Guarantee parse(String text) {
        for (Guarantee guarantee : values()) {
            if (guarantee.cliName().equals(text)) {
                return guarantee;
            }
        }
        throw new IllegalArgumentException("--guarantee '" + text + "' must be one of "
                + Arrays.stream(values()).map(Guarantee::cliName).collect(Collectors.joining(", ")));
    }
}
