package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.db.InMemoryDatabase;
import org.streambench.db.StoredRecord;
import org.streambench.generator.Pattern;
import org.streambench.generator.SensorRecord;

/** Exactly-once's buffer: writes reach the database only with their completed checkpoint, once, also after a restore. */
class CommitOnCheckpointTest {

    private static final Blob.Pool BLOBS = Blob.pool(16, 7);
    private static final SensorRecord A1 = new SensorRecord("a00000000000", 1, 2, 3, 1, 2, 3);
    private static final SensorRecord A2 = new SensorRecord("a00000000000", 10, 20, 30, 10, 20, 30);
    private static final SensorRecord B1 = new SensorRecord("b00000000000", 4, 5, 6, 4, 5, 6);

    private final InMemoryDatabase database = new InMemoryDatabase();
    private final OperatorMetrics metrics = new OperatorMetrics(
            ExperimentSpec.builder("test", "noop", Pattern.UPDATE).build(), "w1", () -> 0);

    private CommitOnCheckpoint buffer() {
        return new CommitOnCheckpoint(database, "sink-0", BLOBS, metrics);
    }

    /** Key a stored before the run, as an update run's prefill stores it. */
    private void prefillA() {
        database.rows().put(A1.id(), new StoredRecord(new SensorRecord(A1.id(), 0, 0, 0, 0, 0, 0), new byte[16]));
    }

    @Test
    void writesWaitForTheirCheckpointToCompleteAndReadsSeeThemFirst() {
        prefillA();
        CommitOnCheckpoint buffer = buffer();
        buffer.update(A1, BLOBS.forKey(A1.id()));
        buffer.processed(Operation.UPDATE, 1);
        assertEquals(A1, buffer.read(A1.id()).orElseThrow().record(), "a read sees the write not committed yet");
        assertEquals(0, database.rows().get(A1.id()).record().int1(), "the database still holds the prefill");
        assertEquals(0, metrics.processedCount(Operation.UPDATE), "counted when committed");
        assertEquals(1, metrics.awaitingCommitCount(), "taken by the operator: the generators' credit frees it");

        buffer.seal(1);
        buffer.update(A2, BLOBS.forKey(A2.id()));
        buffer.insert(B1, BLOBS.forKey(B1.id()));
        buffer.processed(Operation.UPDATE, 2);
        buffer.processed(Operation.INSERT, 3);
        buffer.seal(2);
        assertEquals(
                Map.of(B1.id(), B1, A2.id(), A2),
                buffer.readAll(List.of(A1.id(), B1.id(), "c00000000000")).entrySet().stream()
                        .collect(
                                HashMap::new,
                                (m, e) -> m.put(e.getKey(), e.getValue().record()),
                                Map::putAll));

        assertEquals(1, buffer.commitUpTo(1));
        assertEquals(A1, database.rows().get(A1.id()).record(), "only checkpoint 1 is committed");
        assertFalse(database.rows().containsKey(B1.id()));
        assertEquals(A2, buffer.read(A1.id()).orElseThrow().record(), "checkpoint 2's write is still seen first");
        assertEquals(1, metrics.processedCount(Operation.UPDATE));

        assertEquals(2, buffer.commitUpTo(2));
        assertEquals(A2, database.rows().get(A1.id()).record());
        assertArrayEquals(BLOBS.forKey(B1.id()), database.rows().get(B1.id()).blob());
        assertEquals(List.of(1L, 2L), database.commits());
        assertEquals(0, buffer.commitUpTo(2), "nothing left");
        assertEquals(0, metrics.awaitingCommitCount());
        assertEquals(2, metrics.processedCount(Operation.UPDATE));
        assertEquals(1, metrics.processedCount(Operation.INSERT));
    }

    @Test
    void aMissedNotificationIsCoveredByTheNextOneEachCheckpointCommittedUnderItsOwnId() {
        CommitOnCheckpoint buffer = buffer();
        buffer.insert(A1, BLOBS.forKey(A1.id()));
        buffer.processed(Operation.INSERT, 1);
        buffer.seal(1);
        buffer.update(A2, BLOBS.forKey(A2.id()));
        buffer.processed(Operation.UPDATE, 2);
        buffer.seal(2);
        assertEquals(2, buffer.commitUpTo(5));
        assertEquals(A2, database.rows().get(A1.id()).record());
        assertEquals(List.of(1L, 2L), database.commits());
    }

    /**
     * A checkpoint taken before the previous one's notification holds both; the earlier is
     * committed on its notification, then the worker fails after the later one completed. The
     * restore commits the later one only: nothing is applied or counted twice.
     */
    @Test
    void aRestoredCheckpointThatAlsoHeldAnEarlierCommittedOneCommitsOnlyWhatIsNew() {
        prefillA();
        CommitOnCheckpoint failed = buffer();
        failed.update(A1, BLOBS.forKey(A1.id()));
        failed.processed(Operation.UPDATE, 1);
        failed.seal(6);
        failed.insert(B1, BLOBS.forKey(B1.id()));
        failed.processed(Operation.INSERT, 2);
        failed.seal(7);
        byte[] checkpoint7 = failed.state();
        assertEquals(1, failed.commitUpTo(6), "checkpoint 6's notification, after checkpoint 7 was taken");
        failed.close();

        CommitOnCheckpoint restored = buffer();
        assertEquals(1, restored.restore(7, checkpoint7), "checkpoint 6's record is not counted again");
        assertEquals(List.of(6L, 7L), database.commits());
        assertEquals(1, metrics.processedCount(Operation.UPDATE));
        assertEquals(1, metrics.processedCount(Operation.INSERT));
        assertEquals(B1, database.rows().get(B1.id()).record());
        assertEquals(0, metrics.awaitingCommitCount());
    }

    /**
     * A restart restores the last completed checkpoint: what it held is committed now if its commit
     * never got in, and skipped (nothing applied or counted twice) if it did.
     */
    @Test
    void aRestoredCheckpointIsCommittedOnceWhetherOrNotItsCommitGotInBeforeTheFailure() {
        prefillA();
        CommitOnCheckpoint failed = buffer();
        failed.update(A1, BLOBS.forKey(A1.id()));
        failed.processed(Operation.UPDATE, 1);
        failed.seal(3);
        byte[] checkpoint3 = failed.state();
        failed.update(A2, BLOBS.forKey(A2.id()));
        failed.processed(Operation.UPDATE, 2);
        assertEquals(2, metrics.awaitingCommitCount());
        failed.close();
        assertEquals(0, metrics.awaitingCommitCount(), "the failed instance's records wait for it no longer");

        CommitOnCheckpoint restored = buffer();
        assertEquals(1, restored.restore(3, checkpoint3), "its commit never got in: committed on restore");
        assertEquals(A1, database.rows().get(A1.id()).record());
        assertArrayEquals(BLOBS.forKey(A1.id()), database.rows().get(A1.id()).blob(), "the BLOB is made again");

        CommitOnCheckpoint again = buffer();
        assertEquals(0, again.restore(3, checkpoint3), "a second restore of the same checkpoint adds nothing");
        assertEquals(List.of(3L), database.commits());
        assertEquals(1, metrics.processedCount(Operation.UPDATE));
        assertEquals(0, metrics.awaitingCommitCount());
        assertEquals(A1, again.read(A1.id()).orElseThrow().record(), "reads now go to the database");
    }
}
