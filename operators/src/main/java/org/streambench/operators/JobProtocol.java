package org.streambench.operators;

/**
 * What the runner and a job's workers agree on: the paths of a worker's endpoint and of the
 * runner's collector, and the metrics the runner reads from each worker. Both sides use these constants, and {@code JobProtocolTest} checks that
 * the job exports every meter under the name given here, so a rename breaks the build or a test
 * instead of silently measuring zero records.
 */
public final class JobProtocol {

    /** GET: the Prometheus text exposition of the job's meters. */
    public static final String METRICS_PATH = "/metrics";
    /** POST: the database is ready; generators waiting for the start begin to emit. */
    public static final String START_PATH = "/start";
    /** POST: the warm-up is over; the latency windows start anew. */
    public static final String MEASURE_PATH = "/measure";
    /** POST: stop the generators; the job processes what they emitted and ends. */
    public static final String STOP_PATH = "/stop";
    /** POST, on the runner's collector: a worker's {@link WorkerStatus}; the answer is a {@link WorkerStatus.View}. */
    public static final String PUSH_PATH = "/push";

    /** A meter: its Micrometer name, and the name Prometheus's text format exports it under. */
    public enum Meter {
        RECORDS("streambench.records", "streambench_records_total"),
        DB_ERRORS("streambench.db.errors", "streambench_db_errors_total"),
        /** A histogram: exported as {@code _bucket}, {@code _count} and {@code _sum}. */
        READ_LATENCY("streambench.read.latency", "streambench_read_latency_seconds"),
        READ_FAILED_LATENCY("streambench.read.failed.latency", "streambench_read_failed_latency_seconds"),
        GENERATED_RECORDS("streambench.generated.records", "streambench_generated_records_total"),
        JOB_CLOCK("streambench.job.clock", "streambench_job_clock_seconds");

        private final String meterName;
        private final String exportedName;

        Meter(String meterName, String exportedName) {
            this.meterName = meterName;
            this.exportedName = exportedName;
        }

        public String meterName() {
            return meterName;
        }

        public String exportedName() {
            return exportedName;
        }
    }

    private JobProtocol() {}
}
