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

    private static WorkerStatus of(
            String worker,
            Map<Integer, Long> emittedByInstance,
            long emittingSinceEpochMillis,
            boolean claimsFault,
            long awaitingCommit) {
        Map<Operation, Long> processed = new EnumMap<>(Operation.class);
        for (Operation op : Operation.values()) {
            processed.put(op, 0L);
        }
        return new WorkerStatus(
                worker,
                "http://" + worker,
                null,
                emittedByInstance,
                Set.of(),
                processed,
                0,
                awaitingCommit,
                null,
                null,
                0,
                0,
                emittingSinceEpochMillis,
                claimsFault,
                null);
    }
}
