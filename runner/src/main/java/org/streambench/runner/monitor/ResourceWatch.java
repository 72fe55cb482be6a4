package org.streambench.runner.monitor;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.streambench.model.RunDocument;

/**
 * Watches the processes of each role (database, engine, runner) over a run's measured window:
 * {@link ProcessUsage} at its start and end, and the highest resident memory of the per-second
 * samples between them; and the block device that holds the database's data. Then what each role
 * used, per record as well, and the device's bytes written per byte of payload.
 */
public final class ResourceWatch {

    /** A watch of nothing, for runs whose resources are not recorded: its result is null. */
    public static final ResourceWatch NONE =
            new ResourceWatch(Map.of(), Map.of(), null, Map::of, ExporterCounters.NONE);

    private final Map<String, Supplier<Collection<ProcessHandle>>> roles;
    private final Map<String, String> notSeen;
    /** The block device holding the database's data, or null. */
    private final String device;
    /** The database server's own counters (empty where the connector reads none, or cannot now). */
    private final Supplier<Map<String, Long>> databaseCounters;
    /** The exporters of a server's machine that the suite scrapes. */
    private final ExporterCounters exporters;

    private CompletableFuture<ExporterCounters.Reading> exportersAtStart;
    private CompletableFuture<ExporterCounters.Reading> exportersAtEnd;

    private Map<String, Long> countersAtStart = Map.of();
    private Map<String, Long> countersAtEnd = Map.of();

    /** What each role's processes used since the first reading, process by process; null before it. */
    private ProcessAccounts accounts;

    private Map<String, ProcessAccounts.Totals> atStart;
    private Map<String, ProcessAccounts.Totals> atEnd;
    /** How many processes each role had at the window's end. */
    private final Map<String, Integer> processesAtEnd = new LinkedHashMap<>();

    private final Map<String, Long> peakRss = new LinkedHashMap<>();
    private DeviceUsage deviceAtStart;
    private DeviceUsage deviceAtEnd;
    private long startNanos;
    private long endNanos;
    /** Each role's counts at the previous per-second sample (its time in previousNanos); null before the first. */
    private Map<String, ProcessAccounts.Totals> previousSecond;

    private long previousNanos;

    /**
     * @param roles   the processes of each role, asked anew at every sample (a server's children come and go)
     * @param notSeen each role that cannot be watched, with the reason
     * @param device  the block device that holds the database's data, or null
     * @param databaseCounters the database server's own cumulative counters, read at the window's start and end
     * @param exporters the exporters whose counters are read at the window's start and end
     */
    public ResourceWatch(
            Map<String, Supplier<Collection<ProcessHandle>>> roles,
            Map<String, String> notSeen,
            String device,
            Supplier<Map<String, Long>> databaseCounters,
            ExporterCounters exporters) {
        this.roles = new LinkedHashMap<>(roles);
        this.notSeen = new LinkedHashMap<>(notSeen);
        this.device = device;
        this.databaseCounters = databaseCounters;
        this.exporters = exporters;
    }

    public synchronized void windowStarts() {
        if (roles.isEmpty()) {
            return;
        }
        startNanos = System.nanoTime();
        exportersAtStart = exporters.readSoon();
        deviceAtStart = device == null ? null : DeviceUsage.of(device).orElse(null);
        countersAtStart = databaseCounters.get();
        read().forEach((role, readings) ->
                peakRss.put(role, ProcessUsage.sum(readings.values()).rssBytes()));
        atStart = accounts.totals();
    }

    /** Each role's processes read now, added to the accounts; returned for their memory. */
    private Map<String, Map<Long, ProcessUsage.Reading>> read() {
        long uptimeTicks = ProcessUsage.uptimeTicks();
        Map<String, Map<Long, ProcessUsage.Reading>> readings = new LinkedHashMap<>();
        roles.forEach((role, processes) -> readings.put(role, ProcessUsage.readings(processes.get())));
        if (accounts == null) {
            accounts = new ProcessAccounts(readings, uptimeTicks);
        } else {
            accounts.add(readings, uptimeTicks);
        }
        return readings;
    }

    /**
     * A per-second sample: the CPU each role used since the previous sample, in cores (empty at the
     * first sample); inside the window, each role's resident memory is also kept, at its highest.
     */
    public synchronized Map<String, Double> second() {
        if (roles.isEmpty()) {
            return Map.of();
        }
        long now = System.nanoTime();
        Map<String, Map<Long, ProcessUsage.Reading>> readings = read();
        Map<String, ProcessAccounts.Totals> totals = accounts.totals();
        Map<String, Double> cores = new LinkedHashMap<>();
        double elapsedSeconds = (now - previousNanos) / 1e9;
        if (previousSecond != null && elapsedSeconds > 0) {
            totals.forEach((role, total) -> {
                ProcessAccounts.Totals before = previousSecond.get(role);
                if (before != null) {
                    cores.put(
                            role,
                            Math.max(0, total.cpuTicks() - before.cpuTicks())
                                    / ProcessUsage.TICKS_PER_SECOND
                                    / elapsedSeconds);
                }
            });
        }
        previousNanos = now;
        previousSecond = totals;
        if (atStart != null && atEnd == null) {
            readings.forEach((role, processes) ->
                    peakRss.merge(role, ProcessUsage.sum(processes.values()).rssBytes(), Math::max));
        }
        return cores;
    }

    /** The roles it watches. */
    public Set<String> roles() {
        return roles.keySet();
    }

    /**
     * Each watched role's CPU ticks and bytes since the watch's first reading, from the same accounts
     * as the window's (a killed server's counts stay), with its processes and memory now.
     */
    public synchronized Map<String, ProcessUsage> usageNow() {
        Map<String, Map<Long, ProcessUsage.Reading>> readings = read();
        Map<String, ProcessAccounts.Totals> totals = accounts.totals();
        Map<String, ProcessUsage> usage = new LinkedHashMap<>();
        readings.forEach((role, processes) -> {
            ProcessUsage now = ProcessUsage.sum(processes.values());
            ProcessAccounts.Totals total = totals.get(role);
            usage.put(
                    role,
                    new ProcessUsage(
                            now.processes(), total.cpuTicks(), total.readBytes(), total.writeBytes(), now.rssBytes()));
        });
        return usage;
    }

    /** The block device that holds the database's data, or null. */
    public String device() {
        return device;
    }

    public synchronized void windowEnds() {
        if (atStart == null || atEnd != null) {
            return;
        }
        endNanos = System.nanoTime();
        // after the start's reading: two readings at once could reach an exporter in either order
        exportersAtEnd = exportersAtStart.thenCompose(atStart -> exporters.readSoon());
        deviceAtEnd = device == null ? null : DeviceUsage.of(device).orElse(null);
        countersAtEnd = databaseCounters.get();
        read().forEach((role, readings) -> {
            ProcessUsage usage = ProcessUsage.sum(readings.values());
            processesAtEnd.put(role, usage.processes());
            peakRss.merge(role, usage.rssBytes(), Math::max);
        });
        atEnd = accounts.totals();
    }

    /**
     * What each role used over the window, with {@code records} processed in it; null unless the
     * window both started and ended. {@code payloadBytesPerRecord}: what each record writes (BLOB
     * and fields), or null when the records write nothing (the read pattern).
     */
    public synchronized RunDocument.Resources resources(long records, Integer payloadBytesPerRecord) {
        if (atEnd == null) {
            return null;
        }
        Map<String, RunDocument.ProcessUse> used = new LinkedHashMap<>();
        atEnd.forEach((role, end) -> {
            ProcessAccounts.Totals start = atStart.get(role);
            double cpuSeconds = Math.max(0, end.cpuTicks() - start.cpuTicks()) / ProcessUsage.TICKS_PER_SECOND;
            Long writeBytes = difference(start.writeBytes(), end.writeBytes());
            used.put(
                    role,
                    new RunDocument.ProcessUse(
                            processesAtEnd.get(role),
                            cpuSeconds,
                            records > 0 ? cpuSeconds * 1e6 / records : null,
                            difference(start.readBytes(), end.readBytes()),
                            writeBytes,
                            writeBytes != null && records > 0 ? (double) writeBytes / records : null,
                            peakRss.get(role)));
        });
        boolean deviceSeen = deviceAtStart != null && deviceAtEnd != null;
        Long deviceWriteBytes = deviceSeen ? deviceAtEnd.writeBytes() - deviceAtStart.writeBytes() : null;
        Double amplification = deviceWriteBytes != null && payloadBytesPerRecord != null && records > 0
                ? deviceWriteBytes / ((double) records * payloadBytesPerRecord)
                : null;
        return new RunDocument.Resources(
                (endNanos - startNanos) / 1e9,
                records,
                used,
                deviceSeen ? device : null,
                deviceSeen ? deviceAtEnd.readBytes() - deviceAtStart.readBytes() : null,
                deviceWriteBytes,
                amplification,
                counterGrowth(),
                exporterUse(records),
                notSeen);
    }

    /** What each exporter read at both ends showed of the window; one that did not answer is named in notSeen. */
    private Map<String, RunDocument.ExporterUse> exporterUse(long records) {
        ExporterCounters.Reading atStart = exportersAtStart.join();
        ExporterCounters.Reading atEnd = exportersAtEnd.join();
        for (ExporterCounters.Reading reading : List.of(atStart, atEnd)) {
            reading.failures().forEach((name, why) -> notSeen.putIfAbsent("exporter " + name, why));
        }
        Map<String, RunDocument.ExporterUse> used = new LinkedHashMap<>();
        for (ScrapeTargets.Exporter exporter : exporters.exporters()) {
            Map<String, Double> start = atStart.counters().get(exporter.name());
            Map<String, Double> end = atEnd.counters().get(exporter.name());
            if (start != null && end != null) {
                used.put(exporter.name(), ExporterCounters.use(exporter.url().toString(), start, end, records));
            }
        }
        return used;
    }

    /** One line for the console: each role's CPU-seconds per million records and peak RSS, the device's bytes written per record. */
    public static String describe(RunDocument.Resources resources) {
        StringBuilder line = new StringBuilder("used in the measured window:");
        String separator = " ";
        for (Map.Entry<String, RunDocument.ProcessUse> role : resources.roles().entrySet()) {
            RunDocument.ProcessUse use = role.getValue();
            line.append(separator)
                    .append(role.getKey())
                    .append(String.format(Locale.ROOT, " %.1f CPU-s", use.cpuSeconds()));
            if (use.cpuSecondsPerMillionRecords() != null) {
                line.append(String.format(Locale.ROOT, " (%.1f per 1M records)", use.cpuSecondsPerMillionRecords()));
            }
            line.append(String.format(Locale.ROOT, ", RSS up to %,d MB", use.peakRssBytes() / 1_000_000));
            separator = "; ";
        }
        if (resources.deviceWriteBytes() != null && resources.records() > 0) {
            line.append(String.format(
                    Locale.ROOT,
                    "; %s wrote %,.0f B per record",
                    resources.device(),
                    resources.deviceWriteBytes() / (double) resources.records()));
            if (resources.writeAmplification() != null) {
                line.append(String.format(Locale.ROOT, " (write amplification %.1f)", resources.writeAmplification()));
            }
        }
        resources.exporters().forEach((name, use) -> {
            if (use.busyCpuSeconds() != null || use.diskWriteBytes() != null) {
                line.append("; exporter ").append(name).append(':');
                String part = " ";
                if (use.busyCpuSeconds() != null) {
                    line.append(String.format(Locale.ROOT, " the machine busy %.1f CPU-s", use.busyCpuSeconds()));
                    part = ", ";
                }
                if (use.diskWriteBytesPerRecord() != null) {
                    line.append(part)
                            .append(String.format(
                                    Locale.ROOT, "its disks wrote %,.0f B per record", use.diskWriteBytesPerRecord()));
                }
            } else {
                line.append("; exporter ")
                        .append(name)
                        .append(": ")
                        .append(use.counterGrowth().size())
                        .append(" counters grew");
            }
        });
        resources
                .notSeen()
                .forEach((role, why) ->
                        line.append("; ").append(role).append(" not seen: ").append(why));
        return line.toString();
    }

    /** How much each counter read at both ends grew; empty unless both reads had some. */
    private Map<String, Long> counterGrowth() {
        Map<String, Long> growth = new TreeMap<>();
        countersAtEnd.forEach((name, end) -> {
            Long start = countersAtStart.get(name);
            if (start != null) {
                growth.put(name, end - start);
            }
        });
        return growth;
    }

    private static Long difference(Long start, Long end) {
        return start == null || end == null ? null : Math.max(0, end - start);
    }
}
