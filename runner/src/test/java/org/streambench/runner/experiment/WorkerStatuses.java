package org.streambench.runner.experiment;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import org.streambench.operators.Operation;
import org.streambench.operators.WorkerStatus;

/** Statuses of other workers, as a test hands them to a {@link JobCollector}: nothing processed. */
final class WorkerStatuses {

    private WorkerStatuses() {}

    static WorkerStatus of(
            String worker, Map<Integer, Long> emittedByInstance, long emittingSinceEpochMillis, boolean claimsFault) {
        return of(worker, emittedByInstance, emittingSinceEpochMillis, claimsFault, 0);
    }

    /** A worker whose operators hold {@code awaitingCommit} records for their checkpoint's commit. */
    static WorkerStatus holding(String worker, long awaitingCommit) {
        return of(worker, Map.of(), 0, false, awaitingCommit);
    }

    /**
     * A worker at {@code endpoint} that fired the run's fault, having processed {@code updates}
     * records and holding {@code awaitingCommit} for its checkpoint's commit.
     */
    static WorkerStatus fired(String worker, String endpoint, long updates, long awaitingCommit) {
        return of(worker, endpoint, Map.of(0, updates), 1, true, awaitingCommit, updates, 1, 0);
    }

    /** A worker at {@code endpoint} whose JVM was told to end mid-run (SIGTERM) after it had processed {@code updates} records. */
    static WorkerStatus endedByEngine(String worker, String endpoint, long updates) {
        return of(worker, endpoint, Map.of(), 1, false, 0, updates, 0, 1);
    }

    private static WorkerStatus of(
            String worker,
            Map<Integer, Long> emittedByInstance,
            long emittingSinceEpochMillis,
            boolean claimsFault,
            long awaitingCommit) {
        return of(
                worker,
                "http://" + worker,
                emittedByInstance,
                emittingSinceEpochMillis,
                claimsFault,
                awaitingCommit,
                0,
                0,
                0);
    }

    private static WorkerStatus of(
            String worker,
            String endpoint,
            Map<Integer, Long> emittedByInstance,
            long emittingSinceEpochMillis,
            boolean claimsFault,
            long awaitingCommit,
            long updates,
            long faultInjectedAtEpochMillis,
            long endedByEngineAtEpochMillis) {
        Map<Operation, Long> processed = new EnumMap<>(Operation.class);
        for (Operation op : Operation.values()) {
            processed.put(op, op == Operation.UPDATE ? updates : 0L);
        }
        return new WorkerStatus(
                worker,
                endpoint,
                null,
                emittedByInstance,
                Set.of(),
                processed,
                0,
                awaitingCommit,
                null,
                null,
                0,
                faultInjectedAtEpochMillis,
                emittingSinceEpochMillis,
                endedByEngineAtEpochMillis,
                claimsFault,
                null);
    }
}
