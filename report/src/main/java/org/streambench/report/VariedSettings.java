package org.streambench.report;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The settings in which a report's runs differ besides the variant's own axes (access mode,
 * guarantee, fault, key distribution): the key space and the parallelism, and each connector
 * setting among the runs of its database, as a matrix's {@code --keyspaces}, {@code --parallelisms} and {@code --db-settings} vary them.
 * Each such setting has a baseline, the value most runs have (of equally common ones the smallest);
 * a run with another value forms cells of its own, named by it ("sync, 1,000,000 keys"), so runs of
 * different settings are never averaged together, and Tables 1-4 rank the baselines' cells.
 */
final class VariedSettings {

    static final String KEYS = "keys";
    static final String PARALLELISM = "parallelism";
    /** A connector setting a run did not give: the connector's own default. */
    static final String DEFAULT = "default";

    /**
     * A setting: the key space and the parallelism across all runs ({@code database} null); a
     * connector setting among the runs of its database, as each database has its own.
     */
    record Setting(String database, String name) {}

    private final Map<Setting, String> baselines;

    private VariedSettings(Map<Setting, String> baselines) {
        this.baselines = baselines;
    }

    static VariedSettings of(List<RunRecord> runs) {
        Set<Setting> settings = new TreeSet<>(Comparator.comparing((Setting setting) -> order(setting.name()))
                .thenComparing(setting -> String.valueOf(setting.database()))
                .thenComparing(Setting::name));
        runs.forEach(run -> settings.addAll(values(run).keySet()));
        Map<Setting, String> baselines = new LinkedHashMap<>();
        for (Setting setting : settings) {
            Map<String, Long> counts = runs.stream()
                    .filter(run -> applies(setting, run))
                    .collect(Collectors.groupingBy(run -> valueOf(run, setting), Collectors.counting()));
            if (counts.size() > 1) {
                baselines.put(
                        setting,
                        counts.entrySet().stream()
                                .max(Comparator.comparing(Map.Entry<String, Long>::getValue)
                                        .thenComparing(
                                                Map.Entry::getKey,
                                                valueOrder(setting.name()).reversed()))
                                .orElseThrow()
                                .getKey());
            }
        }
        return new VariedSettings(baselines);
    }

    boolean any() {
        return !baselines.isEmpty();
    }

    /** The values of {@code run} of the settings that vary, in a stable order. */
    Map<Setting, String> of(RunRecord run) {
        Map<Setting, String> values = new LinkedHashMap<>();
        baselines.keySet().stream()
                .filter(setting -> applies(setting, run))
                .forEach(setting -> values.put(setting, valueOf(run, setting)));
        return values;
    }

    String baseline(Setting setting) {
        return baselines.get(setting);
    }

    /** What sets {@code values} apart from the baselines, as a variant's tail: ", 1,000,000 keys, parallelism 4"; empty at the baselines. */
    String variant(Map<Setting, String> values) {
        StringBuilder variant = new StringBuilder();
        values.forEach((setting, value) -> {
            if (!value.equals(baselines.get(setting))) {
                variant.append(", ").append(label(setting.name(), value));
            }
        });
        return variant.toString();
    }

    static String label(String name, String value) {
        return switch (name) {
            case KEYS -> String.format(Locale.ROOT, "%,d keys", Long.parseLong(value));
            case PARALLELISM -> "parallelism " + value;
            default -> name + (value.equals(DEFAULT) ? " at its default" : "=" + value);
        };
    }

    private static boolean applies(Setting setting, RunRecord run) {
        return setting.database() == null || setting.database().equals(run.database());
    }

    private static Map<Setting, String> values(RunRecord run) {
        Map<Setting, String> values = new LinkedHashMap<>();
        values.put(new Setting(null, KEYS), Long.toString(run.keys()));
        values.put(new Setting(null, PARALLELISM), Integer.toString(run.parallelism()));
        run.connectorSettings().forEach((name, value) -> values.put(new Setting(run.database(), name), value));
        return values;
    }

    private static String valueOf(RunRecord run, Setting setting) {
        return values(run).getOrDefault(setting, DEFAULT);
    }

    private static int order(String name) {
        return name.equals(KEYS) ? 0 : name.equals(PARALLELISM) ? 1 : 2;
    }

    /** Numbers by size, a connector setting's default first, other values alphabetically. */
    private static Comparator<String> valueOrder(String name) {
        if (name.equals(KEYS) || name.equals(PARALLELISM)) {
            return Comparator.comparingLong(Long::parseLong);
        }
        Function<String, Boolean> notDefault = value -> !value.equals(DEFAULT);
        return Comparator.comparing(notDefault).thenComparing(Comparator.naturalOrder());
    }
}
