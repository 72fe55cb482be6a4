package org.streambench.db;

import java.nio.file.Path;
import java.util.List;
import org.streambench.generator.Pattern;

/**
 * A database's own load tool (or its field's standard one), driven with the processing operator's
 * statements on the suite's table: the ceiling a pipeline's throughput is measured against. The
 * runner has reset and prefilled the table as for a run; the tool runs unthrottled, one client per
 * thread, each making its calls as the operator's access mode does (one synchronous call after
 * another; batches of N records; K calls in flight), and says what it did so that the runner can
 * check it in the database afterwards.
 */
public interface CeilingTool {

    /** The most clients a tool runs: a new key holds its client's number in 2 digits. */
    int MAX_CLIENTS = 99;

    /**
     * The {@code n}-th new key (from 1) of client {@code client}: {@code n}, the client's number in 2
     * digits, its own counter in 9; never one of the prefilled {@code e...} keys. Every tool's
     * script writes its new keys so, and names some of them in {@link Measurement#insertedIds()}.
     */
    static String newKey(int client, long n) {
        return String.format(java.util.Locale.ROOT, "n%02d%09d", client, n);
    }

    /** Refuses more than {@link #MAX_CLIENTS} clients, naming the tool. */
    static void requireClients(String tool, int clients) {
        if (clients > MAX_CLIENTS) {
            throw new DatabaseException(
                    tool + ": at most " + MAX_CLIENTS + " threads (a new key holds the client's number in 2 digits)");
        }
    }

    /**
     * The clients of a tool that makes one call at a time on each, for {@code request}: async:K is K
     * per thread, as the operator runs it on a connector without asynchronous calls (K connections
     * per instance); refused above {@link #MAX_CLIENTS}, the message naming them as {@code clientWord}.
     */
    static int clientsOfOneCallEach(String tool, String clientWord, Request request) {
        int clients = request.threads() * request.inFlight();
        requireClients(
                tool
                        + (request.inFlight() > 1
                                ? " (async:" + request.inFlight() + " is " + request.inFlight() + " " + clientWord
                                        + " per thread)"
                                : ""),
                clients);
        return clients;
    }

    /**
     * Refuses, with a {@link DatabaseException} whose message is a line for the user, a request the
     * tool cannot run as the connector would (too many clients, an access mode it cannot make, too
     * few keys for its clients); the runner asks before anything starts. The default takes one
     * synchronous call after another only.
     */
    default void check(Request request) {
        requireClients(name(), request.threads());
        if (!request.sync()) {
            throw new DatabaseException(name() + " makes one synchronous call after another only; no ceiling for "
                    + (request.batch() != 1 ? "batch:" + request.batch() : "async:" + request.inFlight()));
        }
    }

    /** The tool as the user knows it, e.g. {@code pgbench}. */
    String name();

    /** The program that must be on the PATH. */
    String program();

    /** The command that installs {@link #program()}, e.g. {@code apt-get install postgresql-client}. */
    String installCommand();

    /**
     * Runs the load into {@code workDir} (the tool's scripts and logs stay there) against the server
     * that {@code settings} name (the connector's url, user, password, table).
     */
    Measurement run(Request request, DatabaseSettings settings, Path workDir) throws Exception;

    /**
     * What to run: the operator's pattern and BLOB size on the prefilled key space, with this many
     * clients, each sending {@code batch} records per round trip (batch:N) or keeping {@code inFlight}
     * calls in flight (async:K), 1 and 1 for one synchronous call after another; {@code checkout} is
     * the suite's checkout, where a tool that is a module of the suite finds its built classes.
     */
    record Request(
            Pattern pattern,
            int blobBytes,
            long keys,
            int threads,
            int batch,
            int inFlight,
            int durationSeconds,
            Path checkout) {

        public boolean sync() {
            return batch == 1 && inFlight == 1;
        }
    }

    /**
     * What the tool did: its version and command line, the operations it completed (one is one
     * record's worth: a read; an insert; a read and an update; mixed: a read that misses and an
     * insert, or a read and an update), over how many seconds, and their latencies in µs (null where
     * the tool does not give it; in batch mode a batch's). {@code inserts} and {@code updates} count the writes, which the
     * runner checks in the database; {@code insertedIds} are some keys the tool inserted.
     */
    record Measurement(
            String version,
            List<String> commandLine,
            long operations,
            double seconds,
            long inserts,
            long updates,
            Double meanMicros,
            Long p50Micros,
            Long p99Micros,
            Long maxMicros,
            List<String> insertedIds,
            String note) {

        public double throughput() {
            return seconds > 0 ? operations / seconds : 0;
        }
    }
}
