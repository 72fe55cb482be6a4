package org.streambench.runner.experiment;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.streambench.local.Home;
import org.streambench.local.UserError;
import org.streambench.operators.engine.EngineProvider;

/**
 * The registry of engines: every engine folder of the checkout whose module is built
 * (its {@code target/classes} registers an {@link EngineProvider}), in the engines' own order.
 * Only the provider class is loaded here; the engine itself runs in the job's JVM, on its module's classpath.
 */
public final class Engines {

    private static final String SERVICE = "META-INF/services/" + EngineProvider.class.getName();
    private static List<EngineProvider> all;

    private Engines() {}

    /** Every engine, lowest {@link EngineProvider#order} first. */
    public static synchronized List<EngineProvider> all() {
        if (all == null) {
            all = discover();
        }
        return all;
    }

    public static List<String> names() {
        return all().stream().map(EngineProvider::name).toList();
    }

    /** The engines the study measured, in its order: the matrix's default axis. */
    public static List<String> study() {
        return all().stream()
                .filter(EngineProvider::inStudy)
                .map(EngineProvider::name)
                .toList();
    }

    public static EngineProvider parse(String name) {
        return all().stream()
                .filter(engine -> engine.name().equals(name))
                .findFirst()
                .orElseThrow(() ->
                        new UserError("unknown engine '" + name + "'; use one of: " + String.join(", ", names())));
    }

    /** The engine's settings: its defaults, overridden by the user's; unknown keys or bad values are errors. */
    static Map<String, String> settings(EngineProvider engine, Map<String, String> given) {
        Map<String, String> defaults = engine.defaultSettings();
        Map<String, String> settings = new TreeMap<>(defaults);
        given.forEach((key, value) -> {
            if (!defaults.containsKey(key)) {
                throw new UserError("engine " + engine.name() + " has no setting '" + key + "'"
                        + (defaults.isEmpty()
                                ? ""
                                : "; its settings: " + String.join(", ", new TreeMap<>(defaults).keySet())));
            }
            settings.put(key, value);
        });
        try {
            engine.checkSettings(settings);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        return settings;
    }

    /**
     * Checks before anything starts that the engine's job classpath holds the connector of
     * {@code database} (every engine gets all of them through db-connectors/all).
     */
    static void requireConnector(EngineProvider engine, String database) {
        String jar = "db-" + (database.equals("noop") ? "api" : database) + "-";
        boolean present = Arrays.stream(Home.classpathOf(engine.module()).split(File.pathSeparator))
                .anyMatch(entry -> Path.of(entry).getFileName().toString().startsWith(jar));
        if (!present) {
            throw new UserError("the " + engine.name() + " job's classpath has no " + database + " connector (" + jar
                    + "*.jar); add it to db-connectors/all/pom.xml and run ./bench build");
        }
    }

    private static List<EngineProvider> discover() {
        Map<String, EngineProvider> byName = new LinkedHashMap<>();
        ServiceLoader.load(EngineProvider.class, Engines.class.getClassLoader())
                .forEach(engine -> byName.put(engine.name(), engine));
        try (Stream<Path> folders = Files.list(Home.root())) {
            for (Path classes : folders.map(folder -> folder.resolve("target").resolve("classes"))
                    .filter(classes -> Files.isRegularFile(classes.resolve(SERVICE)))
                    .sorted()
                    .toList()) {
                ClassLoader loader = new URLClassLoader(
                        "engine " + classes.getParent().getParent().getFileName(),
                        new URL[] {url(classes)},
                        Engines.class.getClassLoader());
                ServiceLoader.load(EngineProvider.class, loader)
                        .forEach(engine -> byName.putIfAbsent(engine.name(), engine));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return byName.values().stream()
                .sorted(Comparator.comparingInt(EngineProvider::order).thenComparing(EngineProvider::name))
                .toList();
    }

    private static URL url(Path folder) {
        try {
            return folder.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
