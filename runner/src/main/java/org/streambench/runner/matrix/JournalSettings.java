package org.streambench.runner.matrix;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.streambench.model.RunDocument;

/**
 * A matrix's settings as its journal stores them: keyed as a {@code --spec} file is (an option's
 * name without {@code --}), a value as text, {@code true} for a switch, a mapping for KEY=VALUE
 * options; and what a resume checks against them.
 */
public final class JournalSettings {

    private JournalSettings() {}

    /** An option's value as the journal stores it; null for a value that is not stored (unset, or a switch that is off). */
    public static Object stored(Object value) {
        if (value == null || (value instanceof Boolean b && !b)) {
            return null;
        }
        if (value instanceof Boolean) {
            return true;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, String> pairs = new LinkedHashMap<>();
            map.forEach((k, v) -> pairs.put(String.valueOf(k), String.valueOf(v)));
            return pairs;
        }
        if (value instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        return value.toString();
    }

    /** Stored settings as the command-line arguments that give them. */
    public static List<String> argsOf(Map<String, Object> settings) {
        List<String> args = new ArrayList<>();
        settings.forEach((key, value) -> {
            if (value instanceof Boolean b) {
                if (b) {
                    args.add("--" + key);
                }
            } else if (value instanceof Map<?, ?> pairs) {
                pairs.forEach((k, v) -> args.add("--" + key + "=" + k + "=" + v));
            } else {
                args.add("--" + key + "=" + value);
            }
        });
        return args;
    }

    /**
     * Where a resumed matrix's first cell would differ from what the journal says it was when the
     * matrix started, as "field stored -> now" (a password, given again or not, is no difference).
     */
    public static List<String> specChanges(RunDocument.Spec stored, RunDocument.Spec now) {
        List<String> changes = new ArrayList<>();
        for (RecordComponent component : RunDocument.Spec.class.getRecordComponents()) {
            Object before = withoutPassword(valueOf(component, stored));
            Object after = withoutPassword(valueOf(component, now));
            if (!Objects.equals(before, after)) {
                changes.add(component.getName() + " " + before + " -> " + after);
            }
        }
        return changes;
    }

    private static Object valueOf(RecordComponent component, RunDocument.Spec spec) {
        try {
            return component.getAccessor().invoke(spec);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object withoutPassword(Object value) {
        if (value instanceof Map<?, ?> map && map.containsKey("password")) {
            Map<Object, Object> rest = new LinkedHashMap<>(map);
            rest.remove("password");
            return rest;
        }
        return value;
    }
}
