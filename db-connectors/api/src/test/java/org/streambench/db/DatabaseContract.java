package org.streambench.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.streambench.generator.Keys;
import org.streambench.generator.SensorRecord;

/**
 * What the connector SPI ({@link Database}) promises, held against a connector on its real
 * server: each connector module runs it by extending this class with {@link #open()}. Shared as
 * the API module's test-jar.
 */
@Tag("integration")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
public abstract class DatabaseContract {

    private static final SensorRecord FIRST = new SensorRecord(Keys.fresh(5, 0, 0), 1, 2, 3, 0.5, 1.5, 2.5);
    private static final SensorRecord SECOND = new SensorRecord(FIRST.id(), 7, 8, 9, -0.5, -1.5, -2.5);
    private static final byte[] FIRST_BLOB = {1, 2, 3};
    private static final byte[] SECOND_BLOB = {4, 5, 6};
    /** The study's largest BLOB. */
    private static final int LARGEST_BLOB = 100_000;

    private Database db;

    /** A connector connected to its real server; the contract resets its schema before each test. */
    protected abstract Database open();

    @BeforeEach
    void connectToAnEmptySchema() {
        db = open();
        db.resetSchema();
        db.prepareStatements();
    }

    @AfterEach
    void disconnect() {
        db.close();
    }

    @Test
    void aRecordReadsBackAsItWasInserted() {
        assertFalse(db.read(FIRST.id()).isPresent(), "a fresh schema holds no record");
        db.insert(FIRST, FIRST_BLOB);
        assertStored(FIRST, FIRST_BLOB);
        assertEquals(1, db.countRows());
    }

    @Test
    void anUpdateOverwritesTheRecordAndItsBlob() {
        db.insert(FIRST, FIRST_BLOB);
        db.update(SECOND, SECOND_BLOB);
        assertStored(SECOND, SECOND_BLOB);
        assertEquals(1, db.countRows());
    }

    @Test
    void aDuplicateInsertFailsUnlessWritesAreUpserts() {
        db.insert(FIRST, FIRST_BLOB);
        if (db.writesAreUpserts()) {
            db.insert(SECOND, SECOND_BLOB);
            assertStored(SECOND, SECOND_BLOB);
        } else {
            assertThrows(DatabaseException.class, () -> db.insert(SECOND, SECOND_BLOB));
            assertStored(FIRST, FIRST_BLOB);
        }
        assertEquals(1, db.countRows());
    }

    @Test
    void anUpdateOfAMissingKeyFailsUnlessWritesAreUpserts() {
        if (db.writesAreUpserts()) {
            db.update(FIRST, FIRST_BLOB);
            assertStored(FIRST, FIRST_BLOB);
            assertEquals(1, db.countRows());
        } else {
            assertThrows(DatabaseException.class, () -> db.update(FIRST, FIRST_BLOB));
            assertFalse(db.read(FIRST.id()).isPresent(), "a failed update stored nothing");
            assertEquals(0, db.countRows());
        }
    }

    @Test
    void aPrefillStoresEveryRecordWithItsBlobAndTheCountsSeeThem() {
        int count = 1_500;
        int blobLength = 64;
        db.prefill(count, DatabaseContract::prefilled, i -> blobOf(i, blobLength));
        assertEquals(count, db.countRows());
        assertEquals(0, db.countBlobsNotOfLength(blobLength));
        assertEquals(count, db.countBlobsNotOfLength(blobLength + 1));
        for (long i : new long[] {0, 1, count / 2, count - 1}) {
            assertStored(prefilled(i), blobOf(i, blobLength));
        }
        assertFalse(db.read(Keys.existing(count)).isPresent(), "the prefill stored no more than it was asked to");
    }

    @Test
    void aResetLeavesAnEmptySchema() {
        db.prefill(10, DatabaseContract::prefilled, i -> FIRST_BLOB);
        db.resetSchema();
        db.prepareStatements();
        assertEquals(0, db.countRows());
        assertFalse(db.read(Keys.existing(0)).isPresent());
        db.insert(FIRST, FIRST_BLOB);
        assertStored(FIRST, FIRST_BLOB);
    }

    /** A ceiling beside a run resets and prefills again on the run's connection: nothing of the first table may linger. */
    @Test
    void aPrefillAfterAResetOnTheSameConnectionStoresEverything() {
        db.prefill(100, DatabaseContract::prefilled, i -> blobOf(i, 64));
        db.resetSchema();
        db.prepareStatements();
        db.prefill(1_500, DatabaseContract::prefilled, i -> blobOf(i, 128));
        assertEquals(1_500, db.countRows());
        assertEquals(0, db.countBlobsNotOfLength(128));
        assertStored(prefilled(1_499), blobOf(1_499, 128));
    }

    @Test
    void theLargestBlobOfTheStudyArrivesWhole() {
        byte[] blob = new byte[LARGEST_BLOB];
        new Random(42).nextBytes(blob);
        db.insert(FIRST, blob);
        assertStored(FIRST, blob);
        assertEquals(0, db.countBlobsNotOfLength(LARGEST_BLOB));
    }

    @Test
    void theServerSaysWhatItIsAndWhatItPromises() {
        assertFalse(db.serverVersion().isBlank(), "a server version");
        assertFalse(db.durabilitySettings().isEmpty(), "the durability settings in force");
        db.insert(FIRST, FIRST_BLOB);
        assertFalse(db.settle().isBlank(), "what settling did");
        assertStored(FIRST, FIRST_BLOB);
    }

    /** Where a connector reads the server's counters, they never go back, and writes make some of them grow. */
    @Test
    void theServersCountersOnlyGrowAndWritesMoveThem() {
        Map<String, Long> before = db.serverCounters();
        if (before.isEmpty()) {
            return; // a connector without counters: nothing to hold it to
        }
        db.prefill(50, DatabaseContract::prefilled, i -> blobOf(i, 1000));
        db.settle();
        // a server may publish its counters a moment later (PostgreSQL's backends, at most once a second)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        Map<String, Long> read = db.serverCounters();
        while (read.equals(before) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            read = db.serverCounters();
        }
        Map<String, Long> after = read;
        assertEquals(before.keySet(), after.keySet(), "the same counters each time");
        before.forEach((name, value) -> assertTrue(after.get(name) >= value, name + " went back: " + after));
        assertTrue(
                before.keySet().stream().anyMatch(name -> after.get(name) > before.get(name)),
                "nothing moved: " + after);
    }

    /** batch mode: one read of many keys finds those stored, and one write stores inserts and updates together. */
    @Test
    void aBatchReadsWhatIsStoredAndWritesInsertsAndUpdatesTogether() {
        db.prefill(20, DatabaseContract::prefilled, i -> blobOf(i, 32));
        List<String> ids = List.of(Keys.existing(3), Keys.existing(17), FIRST.id(), Keys.existing(0));
        Map<String, StoredRecord> found = db.readAll(ids);
        assertEquals(
                Set.of(Keys.existing(3), Keys.existing(17), Keys.existing(0)),
                found.keySet(),
                "a missing key is left out");
        assertEquals(prefilled(17), found.get(Keys.existing(17)).record());
        assertArrayEquals(blobOf(17, 32), found.get(Keys.existing(17)).blob());

        SensorRecord updated = prefilled(3).plus(SECOND);
        db.writeAll(
                List.of(new Database.Write(FIRST, FIRST_BLOB, true), new Database.Write(updated, SECOND_BLOB, false)));
        assertStored(FIRST, FIRST_BLOB);
        assertStored(updated, SECOND_BLOB);
        assertEquals(21, db.countRows());
    }

    @Test
    void aBatchThatUpdatesAMissingKeyFailsUnlessWritesAreUpserts() {
        List<Database.Write> writes = List.of(new Database.Write(FIRST, FIRST_BLOB, false));
        if (db.writesAreUpserts()) {
            db.writeAll(writes);
            assertStored(FIRST, FIRST_BLOB);
        } else {
            assertThrows(DatabaseException.class, () -> db.writeAll(writes));
        }
    }

    /**
     * at-least-once replays inserts whose first attempt got in: once {@code upsertInserts()} said
     * yes (here after the statements were prepared), an insert of a stored key overwrites it, one
     * by one and in a batch, and an update of a missing key is still refused where writes are not
     * upserts. A connector that says no changed nothing.
     */
    @Test
    void insertsMadeUpsertsOverwriteTheirOwnRowsAlsoInBatches() {
        db.prefill(3, DatabaseContract::prefilled, i -> blobOf(i, 32));
        db.insert(FIRST, FIRST_BLOB);
        if (!db.upsertInserts()) {
            assertThrows(DatabaseException.class, () -> db.insert(SECOND, SECOND_BLOB));
            return;
        }
        db.insert(SECOND, SECOND_BLOB);
        assertStored(SECOND, SECOND_BLOB);
        SensorRecord replayed = prefilled(1);
        SensorRecord fresh = new SensorRecord(Keys.fresh(5, 0, 1), 4, 5, 6, 0.25, 0.5, 0.75);
        db.writeAll(List.of(
                new Database.Write(FIRST, FIRST_BLOB, true),
                new Database.Write(replayed, SECOND_BLOB, true),
                new Database.Write(fresh, FIRST_BLOB, true)));
        assertStored(FIRST, FIRST_BLOB);
        assertStored(replayed, SECOND_BLOB);
        assertStored(fresh, FIRST_BLOB);
        assertEquals(5, db.countRows());
        if (!db.writesAreUpserts()) {
            SensorRecord missing = new SensorRecord(Keys.existing(9), 1, 1, 1, 1, 1, 1);
            assertThrows(DatabaseException.class, () -> db.update(missing, FIRST_BLOB));
            assertThrows(
                    DatabaseException.class,
                    () -> db.writeAll(List.of(new Database.Write(missing, FIRST_BLOB, false))));
        }
    }

    /**
     * exactly-once: an epoch's writes are stored once; the same or an earlier epoch of the sink
     * again stores nothing (a commit repeated after a recovery); each sink counts its own epochs,
     * and a reset forgets them. A connector without transactions says so and refuses the call.
     */
    @Test
    void anEpochIsCommittedOnceAndNeverAgainUntilAReset() {
        List<Database.Write> insertFirst = List.of(new Database.Write(FIRST, FIRST_BLOB, true));
        if (!db.commitsEpochs()) {
            assertThrows(UnsupportedOperationException.class, () -> db.commitEpoch("sink-0", 1, insertFirst));
            assertEquals(0, db.countRows());
            return;
        }
        List<Database.Write> updateToSecond = List.of(new Database.Write(SECOND, SECOND_BLOB, false));
        assertTrue(db.commitEpoch("sink-0", 1, insertFirst));
        assertStored(FIRST, FIRST_BLOB);
        assertFalse(db.commitEpoch("sink-0", 1, updateToSecond), "epoch 1 of sink-0 is committed already");
        assertFalse(db.commitEpoch("sink-0", 0, updateToSecond), "an earlier epoch is committed already");
        assertStored(FIRST, FIRST_BLOB);
        assertTrue(db.commitEpoch("sink-1", 1, updateToSecond), "sink-1 counts its own epochs");
        assertStored(SECOND, SECOND_BLOB);
        assertTrue(db.commitEpoch("sink-0", 5, List.of(new Database.Write(FIRST, FIRST_BLOB, false))));
        assertStored(FIRST, FIRST_BLOB);
        assertEquals(1, db.countRows());

        db.resetSchema();
        db.prepareStatements();
        assertTrue(db.commitEpoch("sink-0", 1, insertFirst), "a reset forgets the epochs");
        assertStored(FIRST, FIRST_BLOB);
    }

    /** A commit whose writes fail stores none of them and no epoch: the same epoch commits afterwards. */
    @Test
    void aFailedEpochCommitStoresNothing() {
        if (!db.commitsEpochs()) {
            assertThrows(
                    UnsupportedOperationException.class,
                    () -> db.commitEpoch("sink-0", 1, List.of(new Database.Write(FIRST, FIRST_BLOB, true))));
            return;
        }
        assumeFalse(db.writesAreUpserts(), "the failing write below is an update of a missing key");
        SensorRecord missing = new SensorRecord(Keys.existing(7), 1, 1, 1, 1, 1, 1);
        List<Database.Write> failing =
                List.of(new Database.Write(FIRST, FIRST_BLOB, true), new Database.Write(missing, SECOND_BLOB, false));
        assertThrows(DatabaseException.class, () -> db.commitEpoch("sink-0", 1, failing));
        assertEquals(0, db.countRows(), "the insert of the failed commit was rolled back");
        assertTrue(db.commitEpoch("sink-0", 1, List.of(new Database.Write(FIRST, FIRST_BLOB, true))));
        assertStored(FIRST, FIRST_BLOB);
    }

    /**
     * exactly-once without transactions ({@link MarkedEpochCommit}): a commit cut short after its
     * writes and before its mark leaves the writes and the earlier mark; the recovery commits that
     * epoch again, its writes store the same values, and then the mark holds it.
     */
    @Test
    void aMarkedCommitCutShortBeforeItsMarkIsCommittedAgain() {
        assumeTrue(db instanceof MarkedEpochCommit, "a transaction holds an epoch's writes and its id together");
        MarkedEpochCommit marked = (MarkedEpochCommit) db;
        assertTrue(marked.commitEpoch("sink-0", 1, List.of(new Database.Write(FIRST, FIRST_BLOB, true))));
        List<Database.Write> epochTwo = List.of(new Database.Write(SECOND, SECOND_BLOB, false));
        db.writeAll(epochTwo); // what a commit of epoch 2 cut short before its mark left
        assertEquals(OptionalLong.of(1), marked.markedEpoch("sink-0"));
        assertTrue(marked.commitEpoch("sink-0", 2, epochTwo), "the recovery commits epoch 2 again");
        assertStored(SECOND, SECOND_BLOB);
        assertEquals(OptionalLong.of(2), marked.markedEpoch("sink-0"));
        assertFalse(marked.commitEpoch("sink-0", 2, epochTwo), "then epoch 2 is marked");
        assertEquals(1, db.countRows());
    }

    /** async mode: a connector's asynchronous calls (or the single-call defaults) store and read back alike. */
    @Test
    void asynchronousCallsCompleteWithWhatTheCallsDo() throws Exception {
        db.writeAsync(new Database.Write(FIRST, FIRST_BLOB, true)).get(1, TimeUnit.MINUTES);
        StoredRecord stored = db.readAsync(FIRST.id()).get(1, TimeUnit.MINUTES).orElseThrow();
        assertEquals(FIRST, stored.record());
        db.writeAsync(new Database.Write(SECOND, SECOND_BLOB, false)).get(1, TimeUnit.MINUTES);
        assertStored(SECOND, SECOND_BLOB);
        assertFalse(db.readAsync(Keys.existing(99)).get(1, TimeUnit.MINUTES).isPresent());
    }

    private static SensorRecord prefilled(long index) {
        int i = (int) index;
        return new SensorRecord(Keys.existing(index), i, -i, i * 3, i / 2.0, -i / 4.0, i * 1.5);
    }

    private static byte[] blobOf(long index, int length) {
        byte[] blob = new byte[length];
        new Random(index).nextBytes(blob);
        return blob;
    }

    private void assertStored(SensorRecord expected, byte[] blob) {
        StoredRecord stored =
                db.read(expected.id()).orElseThrow(() -> new AssertionError(expected.id() + " is missing"));
        assertEquals(expected, stored.record());
        assertArrayEquals(blob, stored.blob());
    }
}
