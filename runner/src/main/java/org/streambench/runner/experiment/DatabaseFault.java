package org.streambench.runner.experiment;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.streambench.generator.EpochClock;
import org.streambench.local.CleanupOnExit;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Fault;

/**
 * A fault the runner injects into the suite's own database server while the job runs ({@code
 * --fault kill-db@T,down=D}: SIGKILL, then a start on the same data D later; {@code
 * freeze-db@T,for=D}: SIGSTOP, then SIGCONT D later), on a thread of its own, T after the records
 * started flowing. {@link #close} ends the fault at once if it is still on: the server always runs
 * again before the run verifies it, also when the run failed. An interrupted runner continues a
 * frozen server, and leaves a killed one down ({@link #endAtExit}).
 */
final class DatabaseFault {

    /** No fault on the database. */
    static final DatabaseFault NONE = new DatabaseFault(null, null, null, null);

    private final Fault fault;
    private final String database;
    private final DatabaseSession session;
    private final PrintWriter out;
    private Thread thread;
    /** Counted down by {@link #close}: the fault's waits end at once. */
    private final CountDownLatch closing = new CountDownLatch(1);

    private volatile long injectedAtEpochMillis;
    /** Whether the fault is on and not ended yet; guarded by this. */
    private boolean on;
    /** Why ending the fault failed, or null; guarded by this. */
    private String failure;

    private DatabaseFault(Fault fault, String database, DatabaseSession session, PrintWriter out) {
        this.fault = fault;
        this.database = database;
        this.session = session;
        this.out = out;
    }

    /** The spec's fault, if it is one on the database; {@link #NONE} otherwise. */
    static DatabaseFault of(ExperimentSpec spec, DatabaseSession session, PrintWriter out) {
        Fault fault = spec.fault();
        return fault != null && fault.kind().onDatabase()
                ? new DatabaseFault(fault, spec.database(), session, out)
                : NONE;
    }

    /** The records flow: the fault's time counts from now. */
    synchronized void recordsFlowing() {
        if (fault == null || thread != null) {
            return;
        }
        thread = new Thread(this::inject, "streambench-database-fault");
        thread.setDaemon(true);
        thread.start();
    }

    @SuppressWarnings("try") // the registration's close() is the clean-up
    private void inject() {
        try {
            if (closing.await(fault.afterMillis(), TimeUnit.MILLISECONDS)) {
                return; // the run ended before the fault was due
            }
            try (CleanupOnExit.Registration endOnExit =
                    CleanupOnExit.register("end the injected fault " + fault, this::endAtExit)) {
                synchronized (this) {
                    session.signalServer(fault.kind() == Fault.Kind.KILL_DB ? "KILL" : "STOP");
                    on = true;
                    injectedAtEpochMillis = EpochClock.nowNanos() / 1_000_000;
                }
                out.printf(
                        Locale.ROOT,
                        "  fault: the database server %s%n",
                        fault.kind() == Fault.Kind.KILL_DB
                                ? "SIGKILLed; it starts again in " + fault.lastsMillis() + " ms"
                                : "SIGSTOPped for " + fault.lastsMillis() + " ms");
                out.flush();
                // ends early if the run ends first (close)
                closing.await(fault.lastsMillis(), TimeUnit.MILLISECONDS);
                end();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // close() ends a fault that is on
        } catch (RuntimeException e) {
            synchronized (this) {
                failure = "the injected fault " + fault + " failed: " + e.getMessage();
            }
        }
    }

    /**
     * The runner exits while the fault is on: a frozen server is continued. A killed one stays down,
     * as an exiting runner starts no server (its clean-up could not stop it); one that this run did
     * not start is named, so that its user starts it again.
     */
    private synchronized void endAtExit() {
        if (!on || fault.kind() != Fault.Kind.KILL_DB) {
            end();
            return;
        }
        on = false;
        if (!session.serverOwnedHere()) {
            out.println("the injected fault " + fault + " left the " + database
                    + " server down; start it again with ./bench db start " + database);
            out.flush();
        }
    }

    /** Ends the fault if it is on: the server is started again, or continued. */
    private synchronized void end() {
        if (!on) {
            return;
        }
        on = false;
        try {
            if (fault.kind() == Fault.Kind.KILL_DB) {
                session.restartServer();
            } else {
                session.signalServer("CONT");
            }
            out.println("  fault over: the database server runs again");
            out.flush();
        } catch (RuntimeException e) {
            failure = "the database server did not run again after the injected fault " + fault + ": " + e.getMessage();
        }
    }

    /** When the fault was injected (epoch milliseconds), or 0 if it was not. */
    long injectedAtEpochMillis() {
        return injectedAtEpochMillis;
    }

    /** Why the fault could not be injected or ended, or null. */
    synchronized String failure() {
        return failure;
    }

    /** Stops the fault's thread and ends a fault that is still on: the server runs again. */
    void close() throws InterruptedException {
        if (fault == null) {
            return; // NONE is shared by every run without a fault on the database: it holds nothing to end
        }
        Thread running;
        synchronized (this) {
            running = thread;
        }
        closing.countDown();
        if (running != null) {
            running.join();
        }
        end();
    }
}
