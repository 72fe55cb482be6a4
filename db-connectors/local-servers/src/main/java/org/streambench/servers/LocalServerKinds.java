package org.streambench.servers;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.streambench.local.Home;

/**
 * The local servers there are: every database folder's {@code server/} module that is built
 * ({@code db-connectors/<db>/server/target/classpath.txt}), each loaded with its own module's
 * classpath, plus any kind on this class's own classpath (a server module's tests).
 */
final class LocalServerKinds {

    /** Where a database keeps its local server, relative to the checkout; {@code *} is the database's folder. */
    static final String MODULE_PATTERN = "db-connectors/*/server";

    private LocalServerKinds() {}

    /** By database name. */
    static Map<String, LocalServerKind> load() {
        Map<String, LocalServerKind> kinds = new TreeMap<>();
        ServiceLoader.load(LocalServerKind.class, LocalServerKinds.class.getClassLoader())
                .forEach(kind -> kinds.put(kind.database(), kind));
        for (Path module : serverModules()) {
            ClassLoader loader = new URLClassLoader(
                    "local server " + module.getParent().getFileName(),
                    urls(Home.classpathOf(Home.root().relativize(module).toString())),
                    LocalServerKinds.class.getClassLoader());
            ServiceLoader.load(LocalServerKind.class, loader).forEach(kind -> kinds.putIfAbsent(kind.database(), kind));
        }
        return kinds;
    }

    private static List<Path> serverModules() {
        Path connectors = Home.root().resolve("db-connectors");
        try (Stream<Path> folders = Files.list(connectors)) {
            return folders.map(folder -> folder.resolve("server"))
                    .filter(server ->
                            Files.isRegularFile(server.resolve("target").resolve("classpath.txt")))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static URL[] urls(String classpath) {
        List<URL> urls = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            try {
                urls.add(Path.of(entry).toUri().toURL());
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }
        return urls.toArray(URL[]::new);
    }
}
