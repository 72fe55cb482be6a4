package org.streambench.runner.experiment;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.streambench.operators.JobProtocol;
import org.streambench.operators.JobProtocol.Meter;

/** Reads one worker's Prometheus endpoint and sums the streambench counters over their labels. */
public final class MetricsScraper {

    private static final String RECORDS = Meter.RECORDS.exportedName();
    private static final String READS = Meter.READ_LATENCY.exportedName() + "_count";
    private static final String READ_SECONDS = Meter.READ_LATENCY.exportedName() + "_sum";
    private static final String ERRORS = Meter.DB_ERRORS.exportedName();
    private static final String GENERATED = Meter.GENERATED_RECORDS.exportedName();
    private static final String JOB_CLOCK = Meter.JOB_CLOCK.exportedName();

    /**
     * Cumulative counters at one instant: {@code nanoTime} on the runner's clock when the answer
     * came; {@code jobEpochNanos} on the job's clock when it read the counters (0 if the job does not show it).
     */
    public record Snapshot(
            long nanoTime,
            long jobEpochNanos,
            double records,
            double reads,
            double readSeconds,
            double errors,
            double generated) {

        /**
         * Two workers' counters as one; the job's clock is the first worker's (the one the job's
         * main started), so the seconds between samples are measured on one clock.
         */
        Snapshot plus(Snapshot other) {
            return new Snapshot(
                    Math.max(nanoTime, other.nanoTime),
                    jobEpochNanos,
                    records + other.records,
                    reads + other.reads,
                    readSeconds + other.readSeconds,
                    errors + other.errors,
                    generated + other.generated);
        }

        /** The seconds between {@code earlier} and this snapshot, on the job's clock where both have it. */
        double secondsSince(Snapshot earlier) {
            return jobEpochNanos > 0 && earlier.jobEpochNanos > 0
                    ? (jobEpochNanos - earlier.jobEpochNanos) / 1e9
                    : (nanoTime - earlier.nanoTime) / 1e9;
        }
    }

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final URI metrics;

    /** @param endpoint a worker's endpoint, e.g. {@code http://127.0.0.1:9400} */
    MetricsScraper(String endpoint) {
        this.metrics = URI.create(endpoint + JobProtocol.METRICS_PATH);
    }

    Snapshot scrape() throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(metrics)
                        .timeout(Duration.ofSeconds(5))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("metrics endpoint answered " + response.statusCode());
        }
        return parse(response.body(), System.nanoTime());
    }

    public static Snapshot parse(String text, long nanoTime) {
        double records = 0;
        double reads = 0;
        double readSeconds = 0;
        double errors = 0;
        double generated = 0;
        double jobClockSeconds = 0;
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.charAt(0) == '#') {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            String name = line.substring(0, brace >= 0 ? brace : space);
            double value = Double.parseDouble(line.substring(space + 1));
            if (name.equals(RECORDS)) {
                records += value;
            } else if (name.equals(READS)) {
                reads += value;
            } else if (name.equals(READ_SECONDS)) {
                readSeconds += value;
            } else if (name.equals(ERRORS)) {
                errors += value;
            } else if (name.equals(GENERATED)) {
                generated += value;
            } else if (name.equals(JOB_CLOCK)) {
                jobClockSeconds = value;
            }
        }
        return new Snapshot(
                nanoTime, Math.round(jobClockSeconds * 1e9), records, reads, readSeconds, errors, generated);
    }
}
