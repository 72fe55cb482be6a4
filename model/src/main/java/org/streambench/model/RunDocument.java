package org.streambench.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * A run's {@code result.json}, field for field: the runner writes it, the report and any other
 * tool read it, both through {@link ResultJson}. The JSON names are these components' names, so
 * writer and reader cannot drift apart. A finished run fills every part (a part that does not
 * apply is null, e.g. {@code rate} of an unthrottled run); a run the runner could not finish has
 * only {@code spec}, {@code status} "interrupted", {@code error} and {@code startedAt} (see
 * {@link Interrupted}). {@code phaseSeconds}: where the run's wall time went, by phase.
 * {@code accessLatencyMicros}: the access mode's own latencies (writeCall: each write call's or
 * batch write's round trip; batchWait: how long records waited for their batch), those that occurred.
 * Layout 2 added {@code spec.access} and {@code accessLatencyMicros}; a layout 1 file reads as sync.
 * {@code ceiling}: the database's own load tool run after the pipeline ({@code bench run --ceiling}),
 * absent without it (an older reader skips it). {@code recovery}: what the engine's recovery did,
 * with the audit of the database; absent for a run with the guarantee none and no fault (an older
 * reader skips it). {@code resources}: what the pipeline's processes used over the measured window
 * (absent for a bounded run, which has no window the runner watches to its end, and in older files).
 */
public record RunDocument(
        int schemaVersion,
        Spec spec,
        String status,
        String error,
        String startedAt,
        Warmup warmup,
        Throughput throughput,
        Rate rate,
        Latency readLatencyMicros,
        Map<String, Latency> readLatencyByResultMicros,
        Latency endToEndLatencyMicros,
        Latency generatorDelayMicros,
        Map<String, Latency> accessLatencyMicros,
        List<Second> perSecond,
        Counts counts,
        Verification verification,
        Environment environment,
        Map<String, Double> phaseSeconds,
        @JsonInclude(JsonInclude.Include.NON_NULL) Ceiling ceiling,
        @JsonInclude(JsonInclude.Include.NON_NULL) Recovery recovery,
        @JsonInclude(JsonInclude.Include.NON_NULL) Resources resources,
        @JsonInclude(JsonInclude.Include.NON_NULL) Fill fill) {

    /**
     * The layout of result.json that this code writes and reads; a change that an older reader would
     * misread raises it. Files without it were written before it was introduced, in layout 1.
     */
    public static final int SCHEMA_VERSION = 2;

    public static final String RECORDS_PER_SECOND = "records/s";

    public RunDocument {
        if (schemaVersion == 0) { // a file without it: written before it was introduced, in layout 1
            schemaVersion = 1;
        }
    }

    /** This document with {@code ceiling} beside its numbers. */
    public RunDocument withCeiling(Ceiling ceiling) {
        return new RunDocument(
                schemaVersion,
                spec,
                status,
                error,
                startedAt,
                warmup,
                throughput,
                rate,
                readLatencyMicros,
                readLatencyByResultMicros,
                endToEndLatencyMicros,
                generatorDelayMicros,
                accessLatencyMicros,
                perSecond,
                counts,
                verification,
                environment,
                phaseSeconds,
                ceiling,
                recovery,
                resources,
                fill);
    }

    /**
     * A step of a fill-level run ({@code bench run --steps N}): step {@code step} of {@code steps}
     * inserted into the table the steps before it left, which held {@code rowsBefore} rows when the
     * step's job started; step 1 starts from a reset table.
     */
    public record Fill(int step, int steps, long rowsBefore) {}

    /**
     * What the processes of each role used over the measured window, read from Linux's /proc at its
     * start and end (CPU time and bytes as differences, RSS at its highest of the per-second
     * samples): {@code database} every process of the suite's own server with its children (postgres's
     * backends, whose times their parent collects when they exit), {@code engine} the job JVM and its
     * children, {@code runner} the bench JVM alone. {@code records}: the records processed in the
     * {@code windowSeconds}. {@code device}: the block device that holds the database's data, with
     * what it read and wrote in the window ({@code /sys/class/block}; every process's, the database's
     * mostly), null when there is none to watch. {@code writeAmplification}: those bytes written per
     * byte of payload the records wrote (BLOB plus 48 bytes of id and fields); null for read, which
     * writes nothing. {@code databaseCounters}: how much each of the server's own counters grew in
     * the window (PostgreSQL's pg_stat_wal and pg_stat_database, MariaDB's InnoDB status; absent
     * where the connector reads none). {@code exporters}: what the exporters the suite scrapes
     * ({@code bench monitor scrape}) showed of the window, by exporter name (absent when none is
     * scraped). {@code notSeen}: each role the runner could not watch, with the reason (an external
     * server, a job on YARN, a system without /proc), and each exporter that did not answer.
     */
    public record Resources(
            double windowSeconds,
            long records,
            Map<String, ProcessUse> roles,
            String device,
            Long deviceReadBytes,
            Long deviceWriteBytes,
            Double writeAmplification,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> databaseCounters,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, ExporterUse> exporters,
            Map<String, String> notSeen) {

        public static final String DATABASE = "database";
        public static final String ENGINE = "engine";
        public static final String RUNNER = "runner";
        /** The roles, in the order the per-second file's columns have them. */
        public static final List<String> ROLES = List.of(DATABASE, ENGINE, RUNNER);
    }

    /**
     * What one exporter of a server's machine showed of the measured window, read at its start and
     * end: {@code counterGrowth} how much each counter series that grew did ({@code name{labels}} as
     * the exporter wrote it; its own process's series left out). From a node exporter's series, the
     * machine's whole use: {@code busyCpuSeconds} (user, nice, system, irq and softirq of every CPU,
     * whoever used them: on a machine of the database alone, the server's) and {@code diskWriteBytes}
     * (every disk, device-mapper, md and zram devices left out, as they write through a disk); each
     * also per million records or per record; null for an exporter without those series.
     */
    public record ExporterUse(
            String url,
            Double busyCpuSeconds,
            Double busyCpuSecondsPerMillionRecords,
            Long diskWriteBytes,
            Double diskWriteBytesPerRecord,
            Map<String, Double> counterGrowth) {}

    /**
     * One role's use: {@code cpuSeconds} user plus system; {@code cpuSecondsPerMillionRecords} the
     * same per million records of the window (null without records); {@code readBytes} and
     * {@code writeBytes} the kernel's storage accounting of the processes ({@code /proc/PID/io},
     * counted as they dirty the page cache, not as the device writes: for PostgreSQL's WAL, one 8 KB
     * write and fdatasync per commit, it counted some 27 times the bytes written; null where it is not
     * readable), {@code writeBytesPerRecord}; {@code peakRssBytes} the role's resident memory at its
     * highest, summed over its processes (memory they share, such as PostgreSQL's shared buffers,
     * counts once for each process that touched it).
     */
    public record ProcessUse(
            int processes,
            double cpuSeconds,
            Double cpuSecondsPerMillionRecords,
            Long readBytes,
            Long writeBytes,
            Double writeBytesPerRecord,
            long peakRssBytes) {}

    /**
     * The database's own load tool on the same server right after the run, with the run's pattern,
     * BLOB, keys, window and its parallelism as threads: {@code throughput} in operations/s (one
     * operation is one record's worth), {@code ratio} the pipeline's mean throughput over it (null
     * unless the tool's run was verified), {@code folder} its ceiling.json's folder, relative to the run's.
     */
    public record Ceiling(
            String tool, int threads, Double throughput, Double ratio, String status, String error, String folder) {}

    /**
     * What the engine's recovery did in a run with a guarantee or a fault (both in {@link Spec}):
     * {@code engineSettings} the engine's own settings for the guarantee, by the engine's names;
     * {@code restartedInstances} processing operator instances the engine restarted from a
     * checkpoint; {@code recordsProcessedAgain} records processed more often than emitted (a replay);
     * {@code audit} what the database holds against what exactly-once processing would leave;
     * {@code fault} how the pipeline's throughput went through the injected fault (absent without one
     * that fired, and in older files); {@code killedServerCaveat} why the audit after a killed server
     * may count the server's own losses as the pipeline's (its profile does not keep every write it
     * acknowledged; absent where it does, and without that fault).
     */
    public record Recovery(
            Map<String, String> engineSettings,
            long restartedInstances,
            long recordsProcessedAgain,
            Audit audit,
            @JsonInclude(JsonInclude.Include.NON_NULL) FaultRecovery fault,
            @JsonInclude(JsonInclude.Include.NON_NULL) String killedServerCaveat) {}

    /**
     * The injected fault against the per-second series: {@code injectedAtEpochMillis} when it fired
     * (the job's clock, as the series'); {@code second} the series' interval it fell in;
     * {@code recordsPerSecondBefore} the mean throughput of up to 10 intervals before it (not the
     * series' first, an engine's start), null if none; {@code lowestRecordsPerSecond} the lowest
     * interval from the fault on, until it recovered (or the end); {@code recoverySeconds} from the
     * fault to the end of the first interval back at 90 % of the throughput before it and still there
     * in the next one (the fault's own interval also holds records from before it), null if it never
     * got back in the run. The intervals are about a second long, and so is the resolution.
     */
    public record FaultRecovery(
            long injectedAtEpochMillis,
            int second,
            Double recordsPerSecondBefore,
            double lowestRecordsPerSecond,
            Double recoverySeconds) {}

    /**
     * Every key the run wrote, read back and compared with what each record applied once leaves:
     * {@code duplicates} records whose effect the database holds twice, {@code losses} records whose
     * effect it lacks, {@code unexplainedKeys} keys whose value no set of duplicated or lost records
     * of theirs explains (counted as wrong, not as either); {@code details} the first of them.
     */
    public record Audit(long keysAudited, long duplicates, long losses, long unexplainedKeys, List<String> details) {}

    /** A run the runner could not finish: its spec and why, no numbers. */
    public record Interrupted(int schemaVersion, Spec spec, String status, String error, String startedAt) {}

    /**
     * What was run; the database password, if any, shows as "***". {@code guarantee} and
     * {@code checkpointIntervalMillis} are absent for the guarantee none, {@code fault} without one,
     * {@code keyDistribution} for uniform keys, so a spec reads the same as before they existed (a
     * matrix journal's cells compare equal).
     */
    public record Spec(
            String engine,
            String database,
            String pattern,
            int blobBytes,
            int durationSeconds,
            int warmupSeconds,
            double rate,
            long keys,
            int parallelism,
            int generatorParallelism,
            long seed,
            int runToken,
            long recordsPerGenerator,
            Map<String, String> engineSettings,
            Map<String, String> databaseSettings,
            String access,
            @JsonInclude(JsonInclude.Include.NON_NULL) String guarantee,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long checkpointIntervalMillis,
            @JsonInclude(JsonInclude.Include.NON_NULL) String fault,
            @JsonInclude(JsonInclude.Include.NON_NULL) String keyDistribution) {}

    /** How the warm-up ended: {@code mode} "fixed" or "steady"; {@code steady} null for a fixed one. */
    public record Warmup(String mode, int seconds, Boolean steady) {}

    /** Processed records per second over the measured window, and whether it still trended. */
    public record Throughput(double mean, double stddev, String unit, double trendPercent, boolean trending) {}

    /** A throttled run's target, the rates achieved over the measured window, and whether it fell behind. */
    public record Rate(double target, String unit, double generated, double processed, boolean behind) {}

    /** Latency statistics in microseconds. */
    public record Latency(long count, double mean, double stddev, long p50, long p95, long p99, long p999, long max) {}

    /**
     * One sample interval (about a second): what happened between the previous sample and this one.
     * {@code epochMillis}: the job's clock when it read the counters that end the interval;
     * {@code intervalSeconds}: the interval's length on that clock; {@code records} (processed),
     * {@code generated}, {@code reads}, {@code errors}: exact counts in the interval, so the rows of a
     * run add up to its counters; {@code readLatencyMeanMicros} is null in an interval without reads;
     * {@code cpuCores}: the CPU each watched role (database, engine, runner) used in the interval, in
     * cores (CPU-seconds per second), empty where the runner watched none (and in older files).
     */
    public record Second(
            int second,
            long epochMillis,
            double intervalSeconds,
            boolean warmup,
            long records,
            long generated,
            long reads,
            Double readLatencyMeanMicros,
            long errors,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Double> cpuCores) {

        public Second {
            cpuCores = cpuCores == null ? Map.of() : Map.copyOf(cpuCores);
        }

        /** A one-second interval of {@code records} processed and generated, without reads or a clock (for tests). */
        public static Second of(int second, boolean warmup, long records) {
            return new Second(second, 0, 1.0, warmup, records, records, 0, null, 0, Map.of());
        }

        public Second withWarmup(boolean inWarmup) {
            return new Second(
                    second,
                    epochMillis,
                    intervalSeconds,
                    inWarmup,
                    records,
                    generated,
                    reads,
                    readLatencyMeanMicros,
                    errors,
                    cpuCores);
        }

        /** Processed records per second in this interval. */
        public double recordsPerSecond() {
            return intervalSeconds > 0 ? records / intervalSeconds : 0;
        }
    }

    /** The job's own counts: records emitted (per generator instance), processed (per operation), failed calls. */
    public record Counts(
            long emitted,
            Map<Integer, Long> emittedByInstance,
            Map<String, Long> processed,
            long errors,
            String firstError) {}

    /** What the verification after the run found; {@code details} names the first mismatches. */
    public record Verification(
            long checked, long mismatches, long expectedInserts, long rowDelta, List<String> details) {}

    /**
     * Where the run ran: {@code cluster} "local" (the job in a JVM of its own on this machine) or
     * "yarn" (with its {@code applicationId}, the cluster's {@code yarnVersion} and what the job
     * asked it for, {@code yarnResources}, by the engine's setting names); {@code jobHeap} the heap
     * of the job's JVM, or on YARN of each container's; {@code workers} the ids (host:pid) of the
     * job's workers that reported to the runner. {@code databaseNote}: set when the database is an
     * emulator (its numbers say nothing about the real one). {@code durability}: the database's
     * durability settings in force during the run; {@code databaseProfile} the profile (default,
     * fast, durable) the suite's own server was started with, null for an external server;
     * {@code settledAfterPrefill}: what wrote out the reset's and prefill's work before the job
     * started. {@code commit}: the suite's git commit. {@code calibration}: the machine's own
     * limits, as last measured on it (absent in older files).
     */
    public record Environment(
            String cluster,
            String applicationId,
            String yarnVersion,
            Map<String, String> yarnResources,
            String jobHeap,
            List<String> workers,
            String engineVersion,
            String databaseVersion,
            String databaseNote,
            Map<String, String> durability,
            String databaseProfile,
            String settledAfterPrefill,
            String java,
            int cores,
            long maxMemoryBytes,
            String os,
            String host,
            String streambenchVersion,
            String commit,
            @JsonInclude(JsonInclude.Include.NON_NULL) Calibration calibration) {}

    /**
     * This machine's own limits ({@code bench calibrate}), measured in {@code folder} (on the block
     * {@code device}, null on a tmpfs): {@code syncedWritesPerSecond} 8 KB writes to one place of a
     * file, each followed by fdatasync, one at a time (what a commit per record costs a database),
     * with the p50 and p99 of one such write; {@code sequentialWriteMBps} a 64 MB file written and
     * synced; {@code sortedMillionsPerSecond} one core's {@code Arrays.sort} of a million random longs,
     * in millions of longs sorted per second (scalar, branchy work, as a database's and an engine's is).
     * {@code seconds}: how long the synced writes were measured.
     */
    public record Calibration(
            String measuredAt,
            String host,
            String folder,
            String device,
            double seconds,
            double syncedWritesPerSecond,
            long syncedWriteP50Micros,
            long syncedWriteP99Micros,
            double sequentialWriteMBps,
            double sortedMillionsPerSecond) {}
}
