package org.streambench.db;

import java.util.List;
import java.util.OptionalLong;

/**
 * Exactly-once's commit ({@link Database#commitEpoch}) on a database whose writes are upserts of a
 * key's whole value but which has no transaction to hold an epoch's writes together with the
 * epoch (Cassandra across partitions, HBase across rows). An epoch's writes are each key's value
 * after that epoch, so storing them again stores the same state. The sink's epoch is marked once
 * all of them are acknowledged, and a commit of an epoch the mark already holds, or an earlier
 * one, stores nothing. A commit cut short by a failure left some of its writes and no mark; the
 * engine's recovery commits that epoch again from its checkpoint, before any later one, and the
 * repeated writes store the same values over the ones that got in.
 *
 * <p>That holds while one task at a time commits for a sink, which the engines the suite runs
 * make sure of on their own (a failed task has ended before its replacement starts). A zombie
 * task still committing a later epoch beside its replacement could be overwritten by the earlier
 * epoch's writes; the transactional databases fence it with the sink's row lock.
 */
public interface MarkedEpochCommit extends Database {

    /** The sink's marked epoch; empty before its first commit (and after a schema reset). */
    OptionalLong markedEpoch(String sink);

    /** Marks {@code epoch} as the sink's last committed one; acknowledged when this returns. */
    void markEpoch(String sink, long epoch);

    @Override
    default boolean commitsEpochs() {
        return true;
    }

    @Override
    default boolean commitEpoch(String sink, long epoch, List<Write> writes) {
        OptionalLong marked = markedEpoch(sink);
        if (marked.isPresent() && marked.getAsLong() >= epoch) {
            return false;
        }
        writeAll(writes);
        markEpoch(sink, epoch);
        return true;
    }
}
