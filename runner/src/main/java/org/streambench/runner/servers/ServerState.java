package org.streambench.runner.servers;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** What a running local server published: its holder's PID, port, version and connector settings. */
/** {@code note}: a warning that belongs next to every number measured against this server, or null. */
public record ServerState(String database, long pid, int port, String version, String note, long startupMillis,
                          Map<String, String> settings) {

    private static final String SETTING = "setting.";

    void write(Path file) throws IOException {
        Properties p = new Properties();
        p.setProperty("database", database);
        p.setProperty("pid", Long.toString(pid));
        p.setProperty("port", Integer.toString(port));
        p.setProperty("version", version);
        if (note != null) {
            p.setProperty("note", note);
        }
        p.setProperty("startupMillis", Long.toString(startupMillis));
        settings.forEach((k, v) -> p.setProperty(SETTING + k, v));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(out, "streambench local server");
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    static ServerState read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        }
        Map<String, String> settings = new TreeMap<>();
        p.stringPropertyNames().stream().filter(k -> k.startsWith(SETTING))
                .forEach(k -> settings.put(k.substring(SETTING.length()), p.getProperty(k)));
        return new ServerState(p.getProperty("database"), Long.parseLong(p.getProperty("pid")),
                Integer.parseInt(p.getProperty("port")), p.getProperty("version"), p.getProperty("note"),
                Long.parseLong(p.getProperty("startupMillis")), settings);
    }
}
