package org.streambench.servers;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What a running local server published: the processes it consists of (the one the suite
 * launched and every process that one had started by the time the server was ready: a holder
 * JVM's database server, postgres's own workers), port, version and connector settings (which
 * hold the generated password: the file is readable by its owner only), and the runner that
 * owns it when it was started for one run only.
 *
 * @param note  a warning that belongs next to every number measured against this server, or null
 * @param profile how durable the server was started (its connector settings include what the
 *              profile sets on the client side)
 * @param owner the run that started this server and stops it at its end; null when started by
 *              {@code bench db start} or kept with {@code --keep-db}
 */
public record ServerState(
        String database,
        List<ProcessRef> processes,
        int port,
        String version,
        String note,
        long startupMillis,
        Map<String, String> settings,
        DbProfile profile,
        ProcessRef owner) {

    /** A process by PID and start time, so that a reused PID is never taken for it. */
    public record ProcessRef(long pid, long startEpochMillis) {

        public static ProcessRef of(ProcessHandle handle) {
            return new ProcessRef(
                    handle.pid(),
                    handle.info().startInstant().map(Instant::toEpochMilli).orElse(0L));
        }

        /** The live process, if this one still runs. */
        public Optional<ProcessHandle> handle() {
            return ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .filter(h -> startEpochMillis == 0
                            || h.info()
                                    .startInstant()
                                    .map(start -> Math.abs(start.toEpochMilli() - startEpochMillis) < 1000)
                                    .orElse(true));
        }

        boolean alive() {
            return handle().isPresent();
        }

        @Override
        public String toString() {
            return pid + "@" + startEpochMillis;
        }

        public static ProcessRef parse(String text) {
            int at = text.indexOf('@');
            return new ProcessRef(Long.parseLong(text.substring(0, at)), Long.parseLong(text.substring(at + 1)));
        }
    }

    private static final String SETTING = "setting.";
    private static final String PROCESS = "process.";

    /** The process the suite launched (the server itself, or its holder JVM). */
    public long pid() {
        return processes.get(0).pid();
    }

    /** The processes of this server that still run. */
    public List<ProcessRef> alive() {
        return processes.stream().filter(ProcessRef::alive).toList();
    }

    ServerState withOwner(ProcessRef newOwner) {
        return new ServerState(database, processes, port, version, note, startupMillis, settings, profile, newOwner);
    }

    void write(Path file) throws IOException {
        Properties p = new Properties();
        p.setProperty("database", database);
        for (int i = 0; i < processes.size(); i++) {
            p.setProperty(PROCESS + i, processes.get(i).toString());
        }
        p.setProperty("port", Integer.toString(port));
        p.setProperty("version", version);
        if (note != null) {
            p.setProperty("note", note);
        }
        if (owner != null) {
            p.setProperty("owner", owner.toString());
        }
        p.setProperty("startupMillis", Long.toString(startupMillis));
        p.setProperty("profile", profile.cliName());
        settings.forEach((k, v) -> p.setProperty(SETTING + k, v));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
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
        p.stringPropertyNames().stream()
                .filter(k -> k.startsWith(SETTING))
                .forEach(k -> settings.put(k.substring(SETTING.length()), p.getProperty(k)));
        List<ProcessRef> processes = new ArrayList<>();
        for (int i = 0; p.getProperty(PROCESS + i) != null; i++) {
            processes.add(ProcessRef.parse(p.getProperty(PROCESS + i)));
        }
        if (processes.isEmpty()) {
            throw new IOException("no process recorded in " + file);
        }
        String owner = p.getProperty("owner");
        return new ServerState(
                p.getProperty("database"),
                List.copyOf(processes),
                Integer.parseInt(p.getProperty("port")),
                p.getProperty("version"),
                p.getProperty("note"),
                Long.parseLong(p.getProperty("startupMillis")),
                settings,
                // a server started before profiles existed ran its vendor's defaults
                DbProfile.parse("profile", p.getProperty("profile", DbProfile.DEFAULT.cliName())),
                owner == null ? null : ProcessRef.parse(owner));
    }
}
