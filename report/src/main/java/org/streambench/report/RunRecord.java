package org.streambench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.streambench.model.AccessModeName;
import org.streambench.model.ResultJson;
import org.streambench.model.RunDocument;

/**
 * One run as its result.json describes it: what the report needs, nothing else. {@code emulated}:
 * the database was an emulator (the run's {@code environment.databaseNote}), so its numbers say
 * nothing about the real database; {@code databaseProfile}: the durability profile of the suite's
 * own server (default, fast, durable), null for an external one. {@code throughputHalf}, {@code latencyHalf}:
 * half the 95 % interval of the run's means from its own per-second samples ({@link BatchMeans}),
 * NaN when its window was too short to tell. {@code access}: how the operator called the database
 * (sync for a file written before access modes existed); {@code endToEndP99}: the 99th percentile of
 * the records' end-to-end latency (µs), or null. {@code guarantee}: none for a file written before
 * guarantees existed; {@code fault} the injected fault, or null; {@code recovery} what the engine's
 * recovery did (the audit, the fault's dent in the throughput), or null; {@code keyDistribution}: how records picked among the
 * keys, uniform for a file written before distributions existed. {@code resources}: what the
 * run's processes used in its measured window, or null (a bounded run, an older file).
 * {@code connectorSettings}: the database settings it ran with, less the connection's (url, user,
 * password); {@code settingsVariant}: empty, or what sets this run apart in a report whose runs vary
 * in key space, parallelism or connector settings (see {@link VariedSettings}). {@code fill}: the
 * step of a fill-level run and the rows stored before it, or null; steps after the first are cells
 * of their own ("sync, fill step 3"). {@code calibration}: its machine's own limits, or null
 * (an older file). {@code behindTargetRate}: a throttled run whose generators or processing fell
 * behind its target rate over the measured window.
 */
public record RunRecord(
        Path folder,
        String engine,
        String database,
        String pattern,
        int blobBytes,
        String status,
        String error,
        Double throughputMean,
        Double throughputStddev,
        Latency readLatency,
        long mismatches,
        String databaseNote,
        String engineVersion,
        String databaseVersion,
        int durationSeconds,
        int warmupSeconds,
        long keys,
        int parallelism,
        double rate,
        String host,
        int cores,
        String commit,
        String databaseProfile,
        double throughputHalf,
        double latencyHalf,
        String access,
        Long endToEndP99,
        String ceilingTool,
        Double ceilingThroughput,
        Double ceilingRatio,
        String guarantee,
        Long checkpointIntervalMillis,
        String fault,
        RunDocument.Recovery recovery,
        String keyDistribution,
        RunDocument.Resources resources,
        Map<String, String> connectorSettings,
        RunDocument.Fill fill,
        RunDocument.Calibration calibration,
        String settingsVariant,
        boolean behindTargetRate) {

    /** The connection's own settings, which say where the database is, not how the run used it. */
    private static final Set<String> CONNECTION_SETTINGS = Set.of("url", "user", "password");

    /** This run in a report whose runs vary in settings: {@code settingsVariant} names its values that are not the baselines ({@link VariedSettings}). */
    public RunRecord withSettingsVariant(String variant) {
        return new RunRecord(
                folder,
                engine,
                database,
                pattern,
                blobBytes,
                status,
                error,
                throughputMean,
                throughputStddev,
                readLatency,
                mismatches,
                databaseNote,
                engineVersion,
                databaseVersion,
                durationSeconds,
                warmupSeconds,
                keys,
                parallelism,
                rate,
                host,
                cores,
                commit,
                databaseProfile,
                throughputHalf,
                latencyHalf,
                access,
                endToEndP99,
                ceilingTool,
                ceilingThroughput,
                ceilingRatio,
                guarantee,
                checkpointIntervalMillis,
                fault,
                recovery,
                keyDistribution,
                resources,
                connectorSettings,
                fill,
                calibration,
                variant,
                behindTargetRate);
    }

    /**
     * How the operator ran: its access mode, and the guarantee, fault and key distribution when
     * they are not the study's ("sync, at-least-once every 500 ms, fail-task@2000ms, zipfian keys").
     * Runs of one variant form a cell; such a run never shares one with the study's runs.
     */
    public String variant() {
        return variant(true, settingsVariant, true);
    }

    /** The variant of the runs that differ from this one only in having no guarantee: the baseline of what it costs. */
    public String variantWithoutGuarantee() {
        return variant(false, settingsVariant, true);
    }

    /** The variant of this run's fill, whatever its step: the runs of one fill curve share it. */
    public String variantOfFill() {
        return variant(true, settingsVariant, false);
    }

    /** The variant of the runs that differ from this one only in the settings {@code otherSettingsVariant} names. */
    public String variantWithSettings(String otherSettingsVariant) {
        return variant(true, otherSettingsVariant, true);
    }

    public boolean hasGuarantee() {
        return !"none".equals(guarantee);
    }

    private String variant(boolean withGuarantee, String settings, boolean withFillStep) {
        String variant = access;
        if (withGuarantee && hasGuarantee()) {
            variant += ", " + guarantee + " every " + checkpointIntervalMillis + " ms";
        }
        if (fault != null) {
            variant += ", " + fault;
        }
        if (!"uniform".equals(keyDistribution)) {
            variant += ", " + keyDistribution + " keys";
        }
        return variant
                + settings
                + (withFillStep && fill != null && fill.step() > 1 ? ", fill step " + fill.step() : "");
    }

    /** Read latency in microseconds. */
    public record Latency(double mean, double stddev, long p50, long p95, long p99, long p999) {}

    private static final RunDocument.Environment NO_ENVIRONMENT = new RunDocument.Environment(
            null, null, null, null, null, null, null, null, null, null, null, null, null, 0, 0, null, null, null, null,
            null);

    /** Records the audit found applied twice, or null without an audit. */
    public Long duplicates() {
        return recovery == null || recovery.audit() == null
                ? null
                : recovery.audit().duplicates();
    }

    /** Records the audit found not applied, or null without an audit. */
    public Long losses() {
        return recovery == null || recovery.audit() == null
                ? null
                : recovery.audit().losses();
    }

    /** Seconds from the injected fault until throughput was back at 90 % of what it was before, or null. */
    public Double faultRecoverySeconds() {
        return recovery == null || recovery.fault() == null
                ? null
                : recovery.fault().recoverySeconds();
    }

    public boolean ok() {
        return "ok".equals(status) && throughputMean != null;
    }

    public boolean emulated() {
        return databaseNote != null && !databaseNote.isBlank();
    }

    /** The database gave up durability on purpose (the fast profile), which the study's did not. */
    public boolean relaxedDurability() {
        return "fast".equals(databaseProfile);
    }

    /** The database synced every write before it acknowledged it (the durable profile), which the study's did not. */
    public boolean strictDurability() {
        return "durable".equals(databaseProfile);
    }

    /** Reads {@code folder/result.json}; throws {@link IllegalArgumentException} if it is not a streambench result. */
    public static RunRecord read(Path folder) throws IOException {
        RunDocument run = ResultJson.read(folder.resolve("result.json"));
        RunDocument.Spec spec = run.spec();
        RunDocument.Throughput throughput = run.throughput();
        RunDocument.Latency latency = run.readLatencyMicros();
        RunDocument.Environment environment = run.environment() == null ? NO_ENVIRONMENT : run.environment();
        return new RunRecord(
                folder,
                spec.engine(),
                spec.database(),
                spec.pattern(),
                spec.blobBytes(),
                run.status(),
                run.error(),
                throughput == null ? null : throughput.mean(),
                throughput == null ? null : throughput.stddev(),
                latency != null && latency.count() > 0
                        ? new Latency(
                                latency.mean(),
                                latency.stddev(),
                                latency.p50(),
                                latency.p95(),
                                latency.p99(),
                                latency.p999())
                        : null,
                run.verification() == null ? 0 : run.verification().mismatches(),
                environment.databaseNote(),
                environment.engineVersion(),
                environment.databaseVersion(),
                spec.durationSeconds(),
                spec.warmupSeconds(),
                spec.keys(),
                spec.parallelism(),
                spec.rate(),
                environment.host(),
                environment.cores(),
                environment.commit(),
                environment.databaseProfile(),
                BatchMeans.throughputHalf(run.perSecond()),
                BatchMeans.latencyHalf(run.perSecond()),
                AccessModeName.orSync(spec.access()),
                run.endToEndLatencyMicros() == null
                        ? null
                        : run.endToEndLatencyMicros().p99(),
                run.ceiling() == null ? null : run.ceiling().tool(),
                run.ceiling() == null ? null : run.ceiling().throughput(),
                run.ceiling() == null ? null : run.ceiling().ratio(),
                spec.guarantee() == null ? "none" : spec.guarantee(),
                spec.checkpointIntervalMillis(),
                spec.fault(),
                run.recovery(),
                spec.keyDistribution() == null ? "uniform" : spec.keyDistribution(),
                run.resources(),
                connectorSettings(spec.databaseSettings()),
                run.fill(),
                environment.calibration(),
                "",
                run.rate() != null && run.rate().behind());
    }

    private static Map<String, String> connectorSettings(Map<String, String> all) {
        Map<String, String> settings = new TreeMap<>();
        if (all != null) {
            all.forEach((key, value) -> {
                if (!CONNECTION_SETTINGS.contains(key)) {
                    settings.put(key, value);
                }
            });
        }
        return settings;
    }

    /**
     * This run's throughput per synced 8 KB write its machine can do one after another (its
     * calibration): near 1 or above for a pattern that commits every record, it ran at the
     * machine's limit, not the database's; null without a calibration.
     */
    public Double perSyncedWrite() {
        return calibration == null || throughputMean == null || calibration.syncedWritesPerSecond() <= 0
                ? null
                : throughputMean / calibration.syncedWritesPerSecond();
    }

    /** A role's CPU-seconds per million records in the measured window, or null. */
    public Double cpuSecondsPerMillionRecords(String role) {
        if (resources == null || resources.roles().get(role) == null) {
            return null;
        }
        return resources.roles().get(role).cpuSecondsPerMillionRecords();
    }

    /** The bytes the database's device wrote per record in the measured window, or null. */
    public Double deviceWriteBytesPerRecord() {
        return resources == null || resources.deviceWriteBytes() == null || resources.records() == 0
                ? null
                : resources.deviceWriteBytes() / (double) resources.records();
    }

    /**
     * The busy CPU-seconds per million records of the machines whose node exporters the run read
     * ({@code bench monitor scrape}: an external server's machine), summed over them; null where none showed any.
     */
    public Double exportersBusyCpuSecondsPerMillionRecords() {
        return sumOverExporters(RunDocument.ExporterUse::busyCpuSecondsPerMillionRecords);
    }

    /** The bytes the disks of those machines wrote per record, summed over them; null where none showed any. */
    public Double exportersDiskWriteBytesPerRecord() {
        return sumOverExporters(RunDocument.ExporterUse::diskWriteBytesPerRecord);
    }

    private Double sumOverExporters(Function<RunDocument.ExporterUse, Double> figure) {
        if (resources == null || resources.exporters() == null) {
            return null;
        }
        List<Double> figures = resources.exporters().values().stream()
                .map(figure)
                .filter(Objects::nonNull)
                .toList();
        return figures.isEmpty()
                ? null
                : figures.stream().mapToDouble(Double::doubleValue).sum();
    }

    public Double writeAmplification() {
        return resources == null ? null : resources.writeAmplification();
    }
}
