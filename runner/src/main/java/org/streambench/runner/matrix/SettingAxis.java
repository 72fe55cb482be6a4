package org.streambench.runner.matrix;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.streambench.generator.KeyDistribution;
import org.streambench.local.UserError;
import org.streambench.runner.experiment.Inputs;

/**
 * A matrix axis over one setting that `bench run` takes once: each value makes its own cells. A
 * cell stores its value by the run option's name without -- ({@link #runOption}).
 */
public enum SettingAxis {
    /** The prefilled key space: the database's size for read, update and mixed. */
    KEYSPACES("--keyspaces", "keys", "10000,1000000"),
    /** How read, update and mixed records pick among the keys; an insert cell takes uniform only. */
    KEY_DISTRIBUTIONS("--key-distributions", "key-distribution", "uniform,zipfian"),
    /** The processing instances, each with its own database session. */
    PARALLELISMS("--parallelisms", "parallelism", "1,2,4"),
    /** Connector settings, e.g. Cassandra's writeConsistency: KEY=VALUE pairs joined by ',' per value. */
    DB_SETTINGS("--db-settings", "db-setting", "'writeConsistency=ONE;writeConsistency=QUORUM'");

    private final String listOption;
    private final String runOption;
    private final String example;

    SettingAxis(String listOption, String runOption, String example) {
        this.listOption = listOption;
        this.runOption = runOption;
        this.example = example;
    }

    /** Values of the list option as a user would give them, for messages. */
    public String example() {
        return example;
    }

    /** The matrix option that lists the values, e.g. {@code --keyspaces}. */
    public String listOption() {
        return listOption;
    }

    /** The run option a value sets, without --, e.g. {@code keys}: the name a cell and the journal store it by. */
    public String runOption() {
        return runOption;
    }

    public static Optional<SettingAxis> ofRunOption(String name) {
        return Arrays.stream(values())
                .filter(axis -> axis.runOption.equals(name))
                .findFirst();
    }

    /** The value as cells store it, one spelling per value (so two spellings make one cell); a bad one refused in a line naming the list option. */
    public String canonical(String value) {
        return switch (this) {
            case KEYSPACES -> Long.toString(Inputs.positiveLong(listOption, value, " of keys, e.g. 10000"));
            case KEY_DISTRIBUTIONS -> {
                try {
                    yield KeyDistribution.parse(value).cliName();
                } catch (IllegalArgumentException e) {
                    throw new UserError(listOption + ": " + e.getMessage());
                }
            }
            case PARALLELISMS -> Integer.toString(Inputs.positiveInt(listOption, value, " of instances, e.g. 4"));
            case DB_SETTINGS -> databaseSettings(value).entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(","));
        };
    }

    /**
     * The plan's setting axes from the values given per axis (each already in one spelling), by run
     * option: refused when the single option sets the same ({@code --keys} beside {@code --keyspaces}:
     * {@code runOptionGiven}; a --db-setting key that --db-settings sets too: {@code dbSettingGiven}).
     */
    public static Map<String, List<String>> axes(
            Map<SettingAxis, List<String>> given, Predicate<String> runOptionGiven, Predicate<String> dbSettingGiven) {
        Map<String, List<String>> axes = new LinkedHashMap<>();
        given.forEach((axis, values) -> {
            if (axis == DB_SETTINGS) {
                values.stream()
                        .flatMap(value -> databaseSettings(value).keySet().stream())
                        .filter(dbSettingGiven)
                        .findFirst()
                        .ifPresent(key -> {
                            throw new UserError("--db-setting " + key + " and --db-settings both set " + key
                                    + "; give it in one of them");
                        });
            } else if (runOptionGiven.test(axis.runOption)) {
                throw new UserError("give --" + axis.runOption + " or " + axis.listOption + ", not both");
            }
            axes.put(axis.runOption, values);
        });
        return axes;
    }

    /** A --db-settings value's connector settings: KEY=VALUE pairs separated by ','. */
    public static Map<String, String> databaseSettings(String value) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String pair : value.split(",", -1)) {
            int equals = pair.indexOf('=');
            String key = equals < 0 ? "" : pair.substring(0, equals).trim();
            if (key.isEmpty()) {
                throw new UserError("--db-settings '" + value + "' must be KEY=VALUE pairs joined by ',' (each value"
                        + " one cell, values separated by ';'), e.g. 'writeConsistency=ONE;writeConsistency=QUORUM'");
            }
            if (settings.put(key, pair.substring(equals + 1).trim()) != null) {
                throw new UserError("--db-settings '" + value + "' sets " + key + " twice");
            }
        }
        return settings;
    }
}
