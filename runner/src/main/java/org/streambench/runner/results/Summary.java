package org.streambench.runner.results;

import java.nio.file.Path;
import java.util.Locale;
import org.streambench.local.CleanupOnExit;
import org.streambench.model.RunDocument;
import org.streambench.model.RunDocument.Verification;
import org.streambench.operators.ExperimentSpec;

/** The one line a finished run prints: what ran, its throughput and latency, its verification, its folder. */
public final class Summary {

    private Summary() {}

    public static String of(RunResult r, Path dir) {
        ExperimentSpec s = r.spec();
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "%s x %s, %s, %d B%s: ",
                s.engine(),
                s.database(),
                s.pattern().cliName(),
                s.blobBytes(),
                s.access().sync() ? "" : ", " + s.access()));
        if (r.environment().databaseNote() != null) {
            // the label only ("MONGODB EMULATOR"): the whole note was printed when the server started
            String note = r.environment().databaseNote();
            line.append("[")
                    .append(note.contains(":") ? note.substring(0, note.indexOf(':')) : note)
                    .append("] ");
        }
        if ("fast".equals(r.environment().databaseProfile())) {
            line.append("[FAST PROFILE: durability relaxed] ");
        }
        if (CleanupOnExit.exiting()) {
            return line.append("INTERRUPTED: the result folder says so -> ")
                    .append(dir)
                    .toString();
        }
        if (!"ok".equals(r.status())) {
            return line.append("FAILED: ")
                    .append(r.error())
                    .append(" -> ")
                    .append(dir)
                    .toString();
        }
        if (s.bounded() && r.perSecond().stream().allMatch(RunDocument.Second::warmup)) {
            // no whole second to take a rate from: "0 records/s" would say the run did nothing
            line.append(String.format(
                    Locale.ROOT,
                    "%,d records, over before a whole second was measured (no rate)",
                    r.report().totalProcessed()));
        } else {
            line.append(String.format(
                    Locale.ROOT,
                    "%,.0f records/s (sd %,.0f)",
                    r.throughput().mean(),
                    r.throughput().stddev()));
        }
        if (r.throughput().trending()) {
            line.append(String.format(
                    Locale.ROOT,
                    " NOT STEADY: %s %.0f %% over the measured window",
                    r.throughput().trendPercent() > 0 ? "rose" : "fell",
                    Math.abs(r.throughput().trendPercent())));
        }
        if (r.rate() != null && r.rate().behind()) {
            line.append(String.format(
                    Locale.ROOT,
                    " BEHIND TARGET RATE of %,.0f/s: %,.0f/s generated, %,.0f/s processed",
                    r.rate().target(),
                    r.rate().generated(),
                    r.rate().processed()));
        }
        if (s.pattern().reads() && r.readLatencyMicros() != null) {
            line.append(String.format(
                    Locale.ROOT,
                    ", read latency %.0f us (sd %.0f, p99 %d)",
                    r.readLatencyMicros().mean(),
                    r.readLatencyMicros().stddev(),
                    r.readLatencyMicros().p99()));
            RunDocument.Latency hits = r.report().latencyByResult().get("hit");
            RunDocument.Latency misses = r.report().latencyByResult().get("miss");
            if (hits != null && misses != null) {
                line.append(String.format(Locale.ROOT, " [hits %.0f us, misses %.0f us]", hits.mean(), misses.mean()));
            }
        }
        Verification v = r.verification();
        line.append(String.format(Locale.ROOT, ", verification %d checks, %d mismatches", v.checked(), v.mismatches()));
        if (!v.details().isEmpty()) {
            line.append(" (").append(v.details().get(0)).append(")");
        }
        RunDocument.Recovery recovery = r.recovery();
        if (recovery != null && recovery.audit() != null) {
            RunDocument.Audit audit = recovery.audit();
            line.append(String.format(
                    Locale.ROOT,
                    "; %s: %d instances restarted, audit of %d keys: %d records applied twice, %d lost",
                    r.spec().guarantee().cliName(),
                    recovery.restartedInstances(),
                    audit.keysAudited(),
                    audit.duplicates(),
                    audit.losses()));
        }
        if (recovery != null && recovery.fault() != null && recovery.fault().recordsPerSecondBefore() != null) {
            RunDocument.FaultRecovery fault = recovery.fault();
            line.append(String.format(
                    Locale.ROOT,
                    "; the fault in second %d: %.0f records/s before, %.0f at the lowest, %s",
                    fault.second(),
                    fault.recordsPerSecondBefore(),
                    fault.lowestRecordsPerSecond(),
                    fault.recoverySeconds() == null
                            ? "not back to 90 % by the end"
                            : String.format(Locale.ROOT, "back to 90 %% after %.1f s", fault.recoverySeconds())));
        }
        return line.append(" -> ").append(dir).toString();
    }
}
