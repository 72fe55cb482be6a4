package org.streambench.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Keys;
import org.streambench.generator.SensorRecord;

/** The commit of a database without transactions: writes first, the sink's mark last, an epoch once. */
class MarkedEpochCommitTest {

    private static final String KEY = Keys.existing(1);
    private static final byte[] BLOB = {7};

    /** Upserts, as Cassandra's and HBase's writes are, and marks that can be made to fail once. */
    private static final class MarkedStore extends InMemoryDatabase implements MarkedEpochCommit {
        final Map<String, Long> marked = new HashMap<>();
        boolean failNextMark;

        @Override
        public void writeAll(List<Write> writes) {
            writes.forEach(w -> rows().put(w.record().id(), new StoredRecord(w.record(), w.blob())));
        }

        @Override
        public OptionalLong markedEpoch(String sink) {
            Long epoch = marked.get(sink);
            return epoch == null ? OptionalLong.empty() : OptionalLong.of(epoch);
        }

        @Override
        public void markEpoch(String sink, long epoch) {
            if (failNextMark) {
                failNextMark = false;
                throw new DatabaseException("the server went away before the mark");
            }
            marked.put(sink, epoch);
        }

        @Override
        public boolean commitEpoch(String sink, long epoch, List<Write> writes) {
            return MarkedEpochCommit.super.commitEpoch(sink, epoch, writes);
        }
    }

    private final MarkedStore db = new MarkedStore();

    @Test
    void anEpochIsStoredOnceAndAnEarlierOneNeverOverALaterOne() {
        assertTrue(commit("sink-0", 1, 10));
        assertEquals(10, stored());
        assertFalse(commit("sink-0", 1, 11), "epoch 1 is marked");
        assertEquals(10, stored());
        assertTrue(commit("sink-0", 2, 12));
        assertFalse(commit("sink-0", 1, 10), "a restored checkpoint's older epoch");
        assertEquals(12, stored(), "the later epoch's value stays");
        assertTrue(commit("sink-1", 1, 13), "each sink has its own mark");
        assertEquals(Map.of("sink-0", 2L, "sink-1", 1L), db.marked);
    }

    @Test
    void aCommitCutShortBeforeItsMarkIsCommittedAgainWithTheSameValues() {
        assertTrue(commit("sink-0", 1, 10));
        db.failNextMark = true;
        assertThrows(DatabaseException.class, () -> commit("sink-0", 2, 20));
        assertEquals(20, stored(), "the writes got in");
        assertEquals(1L, db.marked.get("sink-0"), "the mark did not");
        assertTrue(commit("sink-0", 2, 20), "the recovery commits epoch 2 again");
        assertEquals(20, stored());
        assertEquals(2L, db.marked.get("sink-0"));
    }

    private boolean commit(String sink, long epoch, int value) {
        SensorRecord record = new SensorRecord(KEY, value, 0, 0, 0, 0, 0);
        return db.commitEpoch(sink, epoch, List.of(new Database.Write(record, BLOB, false)));
    }

    private int stored() {
        return db.rows().get(KEY).record().int1();
    }
}
