package org.streambench.runner.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.streambench.local.UserError;

/**
 * The metrics endpoints of the job JVMs (and of a running matrix) that run now, as Prometheus
 * file-based service discovery targets: one file per endpoint in {@code work/monitor/targets/},
 * written when the job is launched and removed when it ends (a file whose process no longer runs,
 * left by a killed runner, is removed by the next launch and by {@code bench monitor}). Written whether or not Prometheus runs, so one started
 * later finds the jobs already running. Beside them, the exporters a user names ({@code bench monitor
 * scrape}): one file each, {@code exporter-NAME.json}, kept until removed.
 */
public final class ScrapeTargets {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;

    public ScrapeTargets(Path work) {
        this.dir = work.resolve("monitor").resolve("targets");
    }

    public Path dir() {
        return dir;
    }

    /** Adds the endpoint that {@code process} serves; closing the registration removes it. */
    public Registration add(ProcessHandle process, String host, int port, Map<String, String> labels) {
        removeEnded();
        // one process may serve several endpoints (the runner: a matrix's and a run's resources)
        Path file = dir.resolve("pid-" + process.pid() + "-port-" + port + ".json");
        Map<String, String> all = new TreeMap<>(labels);
        all.put("pid", Long.toString(process.pid()));
        write(file, List.of(host + ":" + port), all);
        return new Registration() {
            @Override
            public void targets(List<String> hostPorts) {
                write(file, hostPorts, all);
            }

            @Override
            public void close() {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }

    private static void write(Path file, List<String> hostPorts, Map<String, String> labels) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            JSON.writeValue(tmp.toFile(), List.of(Map.of("targets", hostPorts, "labels", labels)));
            // Prometheus reads *.json only, so it never sees a half-written file
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the scrape target " + file, e);
        }
    }

    /** An exporter the suite's Prometheus scrapes until it is removed: its name and its metrics URL. */
    public record Exporter(String name, URI url) {}

    private static final Pattern EXPORTER_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");

    /** Adds (or replaces) the exporter {@code name}, scraped at {@code url}; labels role=exporter, exporter=NAME. */
    public void addExporter(Exporter exporter) {
        URI url = exporter.url();
        Map<String, String> labels = new TreeMap<>();
        labels.put("role", "exporter");
        labels.put("exporter", exporter.name());
        labels.put("__scheme__", url.getScheme());
        labels.put(
                "__metrics_path__",
                url.getRawPath() == null || url.getRawPath().isEmpty() ? "/metrics" : url.getRawPath());
        write(exporterFile(exporter.name()), List.of(url.getHost() + ":" + url.getPort()), labels);
    }

    /** Removes the exporter {@code name}; whether there was one. */
    public boolean removeExporter(String name) {
        try {
            return Files.deleteIfExists(exporterFile(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The exporters named so far, by name. */
    public List<Exporter> exporters() {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Exporter> exporters = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "exporter-*.json")) {
            for (Path file : files) {
                JsonNode group = JSON.readTree(file.toFile()).get(0);
                JsonNode labels = group.get("labels");
                exporters.add(new Exporter(
                        labels.get("exporter").asText(),
                        URI.create(labels.get("__scheme__").asText() + "://"
                                + group.get("targets").get(0).asText()
                                + labels.get("__metrics_path__").asText())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        exporters.sort(Comparator.comparing(Exporter::name));
        return exporters;
    }

    /**
     * An exporter from the command line's NAME=URL, checked: a short lower-case name, an http(s) URL
     * with a host and a port.
     */
    public static Exporter parseExporter(String text) {
        int equals = text.indexOf('=');
        String name = equals < 0 ? "" : text.substring(0, equals);
        if (!EXPORTER_NAME.matcher(name).matches()) {
            throw new UserError("'" + text + "' is not NAME=URL with a NAME of lower-case letters, digits and '-'"
                    + " (at most 40), e.g. db=http://dbhost:9187/metrics");
        }
        String url = text.substring(equals + 1);
        try {
            URI uri = new URI(url);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                    || uri.getHost() == null
                    || uri.getPort() < 1
                    || uri.getRawQuery() != null) {
                throw new URISyntaxException(url, "not http(s)://HOST:PORT[/PATH]");
            }
            return new Exporter(name, uri);
        } catch (URISyntaxException e) {
            throw new UserError("exporter " + name + ": '" + url
                    + "' is not an http(s)://HOST:PORT[/PATH] URL, e.g. http://dbhost:9187/metrics");
        }
    }

    private Path exporterFile(String name) {
        return dir.resolve("exporter-" + name + ".json");
    }

    /** Removes the files of jobs that no longer run; returns how many remain. */
    public int removeEnded() {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int remaining = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "pid-*.json")) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                String pid = name.substring("pid-".length(), name.length() - ".json".length())
                        .split("-")[0];
                if (pid.chars().allMatch(Character::isDigit)
                        && !ProcessHandle.of(Long.parseLong(pid))
                                .map(ProcessHandle::isAlive)
                                .orElse(false)) {
                    Files.deleteIfExists(file);
                } else {
                    remaining++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return remaining;
    }

    /** A target while its job runs. */
    public interface Registration extends AutoCloseable {
        /** The endpoints ({@code host:port}) of the job's workers, once the job has more than the one added. */
        void targets(List<String> hostPorts);

        @Override
        void close();
    }
}
