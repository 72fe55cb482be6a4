package org.streambench.runner.experiment;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.streambench.local.Home;
import org.streambench.local.UserError;

/**
 * The engines the runner can launch, each as its own JVM with its own module's classpath (their
 * classpaths conflict), with the JVM flags each needs on JDK 17 and its settings' defaults.
 */
@SuppressWarnings("ImmutableEnumChecker") // the lists and maps are List.of / Map.of
public enum Engine {
    FLINK("flink-job", "org.streambench.flink.FlinkJob", List.of(), Map.of(), Map.of()),
    SPARK(
            "spark-job",
            "org.streambench.spark.SparkJob",
            Flags.SPARK,
            Map.of("SPARK_LOCAL_IP", "127.0.0.1"),
            Map.of("batchIntervalMillis", "1000")),
    APEX(
            "apex-app",
            "org.streambench.apex.ApexJob",
            Flags.APEX,
            Map.of(),
            Map.of("streamLocality", "none", "maxInFlight", "10000"));

    private final String module;
    private final String mainClass;
    private final List<String> jvmFlags;
    private final Map<String, String> environment;
    private final Map<String, String> defaultSettings;

    Engine(
            String module,
            String mainClass,
            List<String> jvmFlags,
            Map<String, String> environment,
            Map<String, String> defaultSettings) {
        this.module = module;
        this.mainClass = mainClass;
        this.jvmFlags = jvmFlags;
        this.environment = environment;
        this.defaultSettings = defaultSettings;
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

    /** Environment variables of the job JVM. */
    public Map<String, String> environment() {
        return environment;
    }

    /** The engine's settings: its defaults, overridden by the user's; unknown keys or bad values are errors. */
    Map<String, String> settings(Map<String, String> given) {
        Map<String, String> settings = new TreeMap<>(defaultSettings);
        given.forEach((key, value) -> {
            if (!defaultSettings.containsKey(key)) {
                throw new UserError("engine " + cliName() + " has no setting '" + key + "'"
                        + (defaultSettings.isEmpty()
                                ? ""
                                : "; its settings: " + String.join(", ", defaultSettings.keySet())));
            }
            settings.put(key, value);
        });
        for (String positive : List.of("batchIntervalMillis", "maxInFlight")) {
            if (settings.containsKey(positive)) {
                Inputs.positiveInt("--engine-setting " + positive, settings.get(positive), "");
            }
        }
        String locality = settings.get("streamLocality");
        if (locality != null
                && !List.of("none", "container_local", "thread_local").contains(locality)) {
            throw new UserError(
                    "--engine-setting streamLocality '" + locality + "' must be none, container_local or thread_local");
        }
        return settings;
    }

    /**
     * Checks before anything starts that this engine's job classpath holds the connector of
     * {@code database} (every engine gets all of them through db-connectors/all).
     */
    void requireConnector(String database) {
        String jar = "db-" + (database.equals("noop") ? "api" : database) + "-";
        boolean present = Arrays.stream(Home.classpathOf(module).split(File.pathSeparator))
                .anyMatch(entry -> Path.of(entry).getFileName().toString().startsWith(jar));
        if (!present) {
            throw new UserError("the " + cliName() + " job's classpath has no " + database + " connector (" + jar
                    + "*.jar); add it to db-connectors/all/pom.xml and run ./bench build");
        }
    }

    public static Engine parse(String name) {
        for (Engine engine : values()) {
            if (engine.cliName().equals(name)) {
                return engine;
            }
        }
        String available = Arrays.stream(values()).map(Engine::cliName).collect(Collectors.joining(", "));
        throw new UserError("unknown engine '" + name + "'; use one of: " + available);
    }

    /** JDK 17 flags: without them Spark's and Apex's reflection into the JDK fails and no record flows. */
    private static final class Flags {
        static final List<String> SPARK = List.of(
                "-XX:+IgnoreUnrecognizedVMOptions",
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
                "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                "--add-opens=java.base/java.io=ALL-UNNAMED",
                "--add-opens=java.base/java.net=ALL-UNNAMED",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--add-opens=java.base/java.util=ALL-UNNAMED",
                "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
                "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
                "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
                "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
                "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
                "-Djdk.reflect.useDirectMethodHandle=false");
        static final List<String> APEX = List.of(
                "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens", "java.base/java.lang=ALL-UNNAMED");
    }
}
