package org.streambench.runner.monitor;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * What a run's processes use, live: each watched role's CPU-seconds, resident memory and process
 * count, and the bytes the database's block device read and wrote, as Prometheus series served by
 * the runner (a {@link MetricsEndpoint}) while the run goes on, prefill and settling included.
 * Read from /proc and /sys when Prometheus scrapes, once for all series of a scrape.
 */
public final class ResourceMetrics implements AutoCloseable {

    /** Reads closer together than this are one scrape's and share one reading. */
    private static final long SAME_SCRAPE_NANOS = 250_000_000L;

    private final ResourceWatch watch;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MetricsEndpoint endpoint;

    private Map<String, ProcessUsage> usage = Map.of();
    private Optional<DeviceUsage> deviceUsage = Optional.empty();
    private long readNanos;

    /**
     * @param tags   the run's labels, as its job's series carry them (engine, database, pattern, blob_bytes)
     * @param labels the scrape target's labels (the run's folder)
     */
    public ResourceMetrics(Path work, ResourceWatch watch, Tags tags, Map<String, String> labels) throws IOException {
        this.watch = watch;
        for (String role : watch.roles()) {
            Tags roleTags = tags.and("role", role);
            FunctionCounter.builder(
                            "streambench.process.cpu",
                            this,
                            m -> m.of(role, u -> u.cpuTicks() / ProcessUsage.TICKS_PER_SECOND))
                    .baseUnit("seconds")
                    .description("CPU time (user and system, with ended children's) of the role's processes")
                    .tags(roleTags)
                    .register(registry);
            Gauge.builder("streambench.process.resident.memory", this, m -> m.of(role, ProcessUsage::rssBytes))
                    .baseUnit("bytes")
                    .description("resident memory of the role's processes together")
                    .tags(roleTags)
                    .register(registry);
            Gauge.builder("streambench.processes", this, m -> m.of(role, ProcessUsage::processes))
                    .description("processes of the role")
                    .tags(roleTags)
                    .register(registry);
        }
        if (watch.device() != null) {
            Tags deviceTags = tags.and("device", watch.device());
            FunctionCounter.builder("streambench.device.written", this, m -> m.ofDevice(DeviceUsage::writeBytes))
                    .baseUnit("bytes")
                    .description("bytes written to the block device that holds the database's data")
                    .tags(deviceTags)
                    .register(registry);
            FunctionCounter.builder("streambench.device.read", this, m -> m.ofDevice(DeviceUsage::readBytes))
                    .baseUnit("bytes")
                    .description("bytes read from the block device that holds the database's data")
                    .tags(deviceTags)
                    .register(registry);
        }
        endpoint = new MetricsEndpoint(work, registry, labels);
    }

    private synchronized double of(String role, ToDoubleFunction<ProcessUsage> value) {
        read();
        ProcessUsage use = usage.get(role);
        return use == null ? Double.NaN : value.applyAsDouble(use);
    }

    private synchronized double ofDevice(ToDoubleFunction<DeviceUsage> value) {
        read();
        return deviceUsage.map(value::applyAsDouble).orElse(Double.NaN);
    }

    private void read() {
        long now = System.nanoTime();
        if (readNanos != 0 && now - readNanos < SAME_SCRAPE_NANOS) {
            return;
        }
        readNanos = now;
        usage = watch.usageNow();
        deviceUsage = watch.device() == null ? Optional.empty() : DeviceUsage.of(watch.device());
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
