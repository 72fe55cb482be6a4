package org.streambench.runner;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The engines the runner can launch, each as its own JVM with its own module's classpath. */
public enum Engine {
    FLINK("flink-job", "org.streambench.flink.FlinkJob", List.of());

    /** Engines of the study that have no adapter yet: named in errors, so users know why. */
    static final List<String> PLANNED = List.of("spark", "apex");

    private final String module;
    private final String mainClass;
    private final List<String> jvmFlags;

    Engine(String module, String mainClass, List<String> jvmFlags) {
        this.module = module;
        this.mainClass = mainClass;
        this.jvmFlags = jvmFlags;
    }

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String module() {
        return module;
    }

    public String mainClass() {
        return mainClass;
    }

    public List<String> jvmFlags() {
        return jvmFlags;
    }

    public static Engine parse(String name) {
        for (Engine engine : values()) {
            if (engine.cliName().equals(name)) {
                return engine;
            }
        }
        String available = Arrays.stream(values()).map(Engine::cliName).collect(Collectors.joining(", "));
        if (PLANNED.contains(name)) {
            throw new UserError("engine '" + name + "' has no adapter yet (see the README's status list); available: " + available);
        }
        throw new UserError("unknown engine '" + name + "'; use one of: " + available);
    }
}
