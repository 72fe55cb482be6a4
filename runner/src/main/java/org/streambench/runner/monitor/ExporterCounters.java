package org.streambench.runner.monitor;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.streambench.model.RunDocument;

/**
 * The counters of the exporters the suite scrapes ({@code bench monitor scrape}), read over HTTP in
 * Prometheus's text format: what a run sees of a database server on another machine. Only series of
 * families declared {@code counter}, so that two reads give what grew between them; the exporter's
 * own process and scrapes ({@code go_*}, {@code process_*}, {@code promhttp_*},
 * {@code pg_exporter_*}) are left out.
 */
public final class ExporterCounters {

    private static final Pattern THE_EXPORTERS_OWN = Pattern.compile("(go|process|promhttp)_.*|[a-z]+_exporter_.*");
    private static final Pattern BUSY_CPU =
            Pattern.compile("node_cpu_seconds_total\\{.*mode=\"(user|nice|system|irq|softirq)\".*}");
    private static final Pattern DISK_WRITTEN =
            Pattern.compile("node_disk_written_bytes_total\\{.*device=\"([^\"]+)\".*}");

    /** Reads no exporter. */
    public static final ExporterCounters NONE = new ExporterCounters(List.of());

    private final List<ScrapeTargets.Exporter> exporters;

    public ExporterCounters(List<ScrapeTargets.Exporter> exporters) {
        this.exporters = List.copyOf(exporters);
    }

    public List<ScrapeTargets.Exporter> exporters() {
        return exporters;
    }

    /** Each exporter's counters at one moment, by exporter name; each one that did not answer, with the reason. */
    public record Reading(Map<String, Map<String, Double>> counters, Map<String, String> failures) {}

    /** One client for the JVM, made when an exporter is first read (most runs read none). */
    private static final class Http {
        static final HttpClient CLIENT =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    /**
     * Reads every exporter now, all at once with the HTTP client's own asynchronous requests, so
     * that a slow or unreachable exporter never holds up the caller (the runner's per-second
     * sampling); done at once when there is none.
     */
    public CompletableFuture<Reading> readSoon() {
        Map<ScrapeTargets.Exporter, CompletableFuture<Map<String, Double>>> answers = new LinkedHashMap<>();
        for (ScrapeTargets.Exporter exporter : exporters) {
            HttpRequest request = HttpRequest.newBuilder(exporter.url())
                    .timeout(Duration.ofSeconds(5))
                    .GET()
                    .build();
            answers.put(
                    exporter,
                    Http.CLIENT
                            .sendAsync(request, HttpResponse.BodyHandlers.ofString())
                            .thenApply(response -> {
                                if (response.statusCode() != 200) {
                                    throw new CompletionException(
                                            new IOException("it answered HTTP " + response.statusCode()));
                                }
                                return parse(response.body());
                            }));
        }
        return CompletableFuture.allOf(answers.values().toArray(CompletableFuture<?>[]::new))
                .handle((allDone, someFailed) -> {
                    Map<String, Map<String, Double>> counters = new LinkedHashMap<>();
                    Map<String, String> failures = new LinkedHashMap<>();
                    answers.forEach((exporter, answer) -> {
                        try {
                            counters.put(exporter.name(), answer.join());
                        } catch (CompletionException e) {
                            Throwable cause = e.getCause() == null ? e : e.getCause();
                            failures.put(
                                    exporter.name(),
                                    exporter.url() + " did not answer: "
                                            + (cause.getMessage() == null ? cause.toString() : cause.getMessage()));
                        }
                    });
                    return new Reading(counters, failures);
                });
    }

    /**
     * What an exporter's counters say of a window: each series that grew from {@code start} to
     * {@code end}, and a node exporter's busy CPU-seconds and disk bytes written, also per record
     * ({@code records} processed in the window).
     */
    static RunDocument.ExporterUse use(String url, Map<String, Double> start, Map<String, Double> end, long records) {
        Map<String, Double> growth = new TreeMap<>();
        end.forEach((series, value) -> {
            Double before = start.get(series);
            if (before != null && value > before) {
                growth.put(series, roundedToMillionths(value - before));
            }
        });
        Double busyCpuSeconds = sumOf(end, start, ExporterCounters::isBusyCpu);
        Double diskWriteBytes = sumOf(end, start, ExporterCounters::isDiskWrite);
        return new RunDocument.ExporterUse(
                url,
                busyCpuSeconds == null ? null : roundedToMillionths(busyCpuSeconds),
                busyCpuSeconds != null && records > 0 ? busyCpuSeconds * 1e6 / records : null,
                diskWriteBytes == null ? null : Math.round(diskWriteBytes),
                diskWriteBytes != null && records > 0 ? diskWriteBytes / records : null,
                growth);
    }

    private static boolean isBusyCpu(String series) {
        return BUSY_CPU.matcher(series).matches();
    }

    /** A disk's bytes written; device-mapper, md and zram devices write through a disk (or to memory), so they would count twice. */
    private static boolean isDiskWrite(String series) {
        Matcher disk = DISK_WRITTEN.matcher(series);
        return disk.matches() && !disk.group(1).matches("(dm-|md|zram).*");
    }

    /** The growth of the series that {@code which} picks, summed; null when the exporter has none of them. */
    private static Double sumOf(Map<String, Double> end, Map<String, Double> start, Predicate<String> which) {
        double sum = 0;
        boolean any = false;
        for (Map.Entry<String, Double> series : end.entrySet()) {
            Double before = start.get(series.getKey());
            if (before != null && which.test(series.getKey())) {
                any = true;
                sum += Math.max(0, series.getValue() - before);
            }
        }
        return any ? sum : null;
    }

    /** The counter series of an exposition in Prometheus's text format, by name with labels as written. */
    static Map<String, Double> parse(String text) {
        Set<String> counterFamilies = new HashSet<>();
        Map<String, Double> counters = new TreeMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] words = line.trim().split("\\s+");
                if (words.length == 4 && words[3].equals("counter")) {
                    counterFamilies.add(words[2]);
                }
                continue;
            }
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            // name, optional {labels} (whose quoted values may hold spaces and braces), value, optional timestamp
            int labelsEnd = line.indexOf('{') >= 0 ? line.lastIndexOf('}') : -1;
            int nameEnd = labelsEnd >= 0 ? line.indexOf('{') : line.indexOf(' ');
            if (nameEnd <= 0) {
                continue;
            }
            String name = line.substring(0, nameEnd);
            if ((!counterFamilies.contains(name) && !counterFamilies.contains(withoutTotal(name)))
                    || THE_EXPORTERS_OWN.matcher(name).matches()) {
                continue;
            }
            String series = labelsEnd >= 0 ? line.substring(0, labelsEnd + 1) : name;
            String[] rest = line.substring(series.length()).trim().split("\\s+");
            try {
                counters.put(series, Double.parseDouble(rest[0]));
            } catch (NumberFormatException notANumber) {
                // a malformed line says nothing about the server
            }
        }
        return counters;
    }

    /** A difference of two large floating-point counters, without the noise of their last bits (2.650000000001455). */
    private static double roundedToMillionths(double value) {
        return Math.round(value * 1e6) / 1e6;
    }

    /** OpenMetrics declares a counter's family without the {@code _total} its samples carry. */
    private static String withoutTotal(String name) {
        return name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
    }
}
