package org.streambench.runner.ceiling;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.streambench.db.CeilingTool;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.StoredRecord;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.local.Home;
import org.streambench.model.AccessModeName;
import org.streambench.model.CeilingDocument;
import org.streambench.operators.AccessMode;
import org.streambench.operators.Blob;
import org.streambench.runner.experiment.DatabaseSession;

/**
 * One ceiling: the table reset and prefilled exactly as for a run (same keys, same BLOBs), the
 * database settled, then its own load tool for the duration, then a check in the database that the
 * tool wrote what it says it did (rows added against its inserts; the sum of int_1 over the
 * prefilled keys against its updates, each of which adds 1; BLOB lengths).
 */
public final class CeilingRun {

    /** Above this many bytes of prefilled rows, the keys are not read back one by one (the rows are still counted). */
    static final long MAX_READ_BACK_BYTES = 1L << 30;

    /**
     * What to measure: the database's tool with the pipeline's pattern, BLOB, key space, parallelism
     * as threads and access mode.
     */
    public record Request(
            Pattern pattern, int blobBytes, long keys, int threads, AccessMode access, int durationSeconds, long seed) {

        /** Records per round trip: batch:N's N, else 1. */
        public int batch() {
            return batchOf(access);
        }

        /** Calls in flight per client: async:K's K, else 1. */
        public int inFlight() {
            return inFlightOf(access);
        }
    }

    /** The access mode as a ceiling makes it: a batch's linger does not apply to a tool, which never waits for records. */
    public static String label(AccessMode access) {
        return access.sync() ? AccessModeName.SYNC : access.kind().label() + ":" + access.size();
    }

    public static int batchOf(AccessMode access) {
        return access.kind() == AccessMode.Kind.BATCH ? access.size() : 1;
    }

    public static int inFlightOf(AccessMode access) {
        return access.kind() == AccessMode.Kind.ASYNC ? access.size() : 1;
    }

    /**
     * Why {@code tool} cannot run {@code request} as the connector would (too few keys for the distinct
     * keys its clients use at a time, or see {@link CeilingTool#check}); null if it can.
     */
    public static String refusal(CeilingTool tool, Request request) {
        // every tool updates distinct keys of each client's own: a batch's, or those in flight
        long distinct = (long) request.threads() * Math.max(request.batch(), request.inFlight());
        if (request.pattern().needsExistingKeys() && request.keys() < distinct) {
            return "--keys " + request.keys() + " is fewer than the " + distinct + " distinct keys that "
                    + request.threads() + " thread" + (request.threads() == 1 ? "" : "s") + " with --access "
                    + label(request.access()) + " use at a time";
        }
        try {
            tool.check(toolRequest(request));
            return null;
        } catch (DatabaseException e) {
            return e.getMessage();
        }
    }

    private static CeilingTool.Request toolRequest(Request request) {
        return new CeilingTool.Request(
                request.pattern(),
                request.blobBytes(),
                request.keys(),
                request.threads(),
                request.batch(),
                request.inFlight(),
                request.durationSeconds(),
                Home.root());
    }

    private CeilingRun() {}

    public static CeilingDocument run(
            Request request, String databaseName, CeilingTool tool, DatabaseSession session, Path dir, PrintWriter out)
            throws InterruptedException {
        String startedAt = Instant.now().toString();
        Database database = session.database();
        if (session.note() != null) {
            out.println(session.note());
        }
        database.resetSchema();
        if (request.pattern().needsExistingKeys()) {
            out.printf(
                    Locale.ROOT, "prefilling %,d keys with %,d-byte BLOBs ...%n", request.keys(), request.blobBytes());
            Blob.Pool blobs = Blob.pool(request.blobBytes(), request.seed());
            database.prefill(request.keys(), RecordGenerator::prefill, i -> blobs.forKey(Keys.existing(i)));
        }
        out.println("settled: " + session.settle());
        long rowsBefore = database.countRows();
        out.printf(
                Locale.ROOT,
                "running %s for %d s: %s, %,d B, %d thread%s, %s ...%n",
                tool.name(),
                request.durationSeconds(),
                request.pattern().cliName(),
                request.blobBytes(),
                request.threads(),
                request.threads() == 1 ? "" : "s",
                label(request.access()));
        CeilingTool.Measurement measured = null;
        String error = null;
        try {
            measured = tool.run(
                    toolRequest(request),
                    new org.streambench.db.DatabaseSettings(session.settings()),
                    dir.toAbsolutePath()); // the tool runs in its folder, so the paths it is given must not be relative
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            error = tool.name() + ": " + e.getMessage();
        }
        CeilingDocument.Verification verification =
                measured == null ? null : verify(request, database, rowsBefore, measured, out);
        String status = error != null ? "failed" : verification.ok() ? "ok" : "failed";
        if (error == null && !verification.ok()) {
            error = "the database does not hold what " + tool.name() + " says it wrote: " + verification.detail();
        }
        return new CeilingDocument(
                CeilingDocument.SCHEMA_VERSION,
                databaseName,
                session.version(),
                database.durabilitySettings(),
                request.pattern().cliName(),
                request.blobBytes(),
                request.keys(),
                request.threads(),
                label(request.access()),
                request.durationSeconds(),
                new CeilingDocument.Tool(
                        tool.name(),
                        measured == null ? null : measured.version(),
                        measured == null ? List.of() : measured.commandLine(),
                        measured == null ? null : measured.note()),
                measured == null
                        ? null
                        : new CeilingDocument.Result(
                                measured.operations(),
                                measured.seconds(),
                                measured.throughput(),
                                measured.meanMicros(),
                                measured.p50Micros(),
                                measured.p99Micros(),
                                measured.maxMicros()),
                verification,
                status,
                error,
                startedAt,
                Home.commit());
    }

    static CeilingDocument.Verification verify(
            Request request, Database database, long rowsBefore, CeilingTool.Measurement measured, PrintWriter out) {
        long rowsAfter = database.countRows();
        List<String> problems = new ArrayList<>();
        if (rowsAfter - rowsBefore != measured.inserts()) {
            problems.add(String.format(
                    Locale.ROOT, "%,d rows added, %,d inserts", rowsAfter - rowsBefore, measured.inserts()));
        }
        int blobsChecked = 0;
        for (String id : measured.insertedIds()) {
            Optional<StoredRecord> row = database.read(id);
            if (row.isEmpty()) {
                problems.add("inserted key " + id + " is not there");
            } else if (row.get().blob().length != request.blobBytes()) {
                problems.add("inserted key " + id + " holds " + row.get().blob().length + " B");
            }
            blobsChecked++;
        }
        Long int1Added = null;
        String readBack;
        if (!request.pattern().needsExistingKeys()) {
            readBack = "no prefilled keys";
        } else if (request.keys() * request.blobBytes() > MAX_READ_BACK_BYTES) {
            readBack = "the prefilled keys were not read back (more than 1 GiB); their sum of int_1 is unchecked";
        } else {
            out.printf(Locale.ROOT, "reading back %,d keys ...%n", request.keys());
            long added = 0;
            long wrongBlobs = 0;
            for (long i = 0; i < request.keys(); i++) {
                String id = Keys.existing(i);
                StoredRecord row =
                        database.read(id).orElseThrow(() -> new DatabaseException("prefilled key " + id + " is gone"));
                added += row.record().int1() - RecordGenerator.prefill(i).int1();
                if (row.blob().length != request.blobBytes()) {
                    wrongBlobs++;
                }
                blobsChecked++;
            }
            int1Added = added;
            if (added != measured.updates()) {
                problems.add(String.format(
                        Locale.ROOT,
                        "int_1 grew by %,d over the prefilled keys, %,d updates",
                        added,
                        measured.updates()));
            }
            if (wrongBlobs > 0) {
                problems.add(wrongBlobs + " prefilled keys hold a BLOB of another length");
            }
            readBack = "every prefilled key read back";
        }
        boolean ok = problems.isEmpty();
        String detail = ok
                ? String.format(
                        Locale.ROOT,
                        "%,d inserts and %,d updates found in the database; %s",
                        measured.inserts(),
                        measured.updates(),
                        readBack)
                : String.join("; ", problems);
        return new CeilingDocument.Verification(
                rowsBefore, rowsAfter, measured.inserts(), measured.updates(), int1Added, blobsChecked, ok, detail);
    }
}
