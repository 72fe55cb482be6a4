package org.streambench.flink;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.streambench.generator.TimedRecord;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.GeneratorInstance;

/**
 * The generator as a Flink source (new Source API): one split per parallel reader, split i is
 * generator instance i, and its state in a checkpoint is the instance's position (the sequence of
 * its next record), so a job restarted from a checkpoint emits again exactly what came after it.
 * A reader emits until the runner stops the job, then ends its input, so Flink drains every
 * emitted record through the processing operator before the job ends.
 * A throttled reader never blocks the task's mailbox thread while it waits for the next record
 * to be due: it reports nothing available, with a future completed when the record is due.
 */
final class GeneratorSource implements Source<TimedRecord, GeneratorSource.InstanceSplit, Set<Integer>> {

    private static final long serialVersionUID = 1L;

    private final ExperimentSpec spec;

    GeneratorSource(ExperimentSpec spec) {
        this.spec = spec;
    }

    /** Records emitted per poll before the reader yields to Flink's mailbox. */
    private static final int BATCH = 64;
    /**
     * Records the job may hold emitted but not processed (and at most about a second of processing):
     * Flink's network buffers hold thousands of these small records, 3,700 against a database of
     * 100 records/s (37 s of latency, and a 39 s drain at the stop).
     */
    private static final long MAX_IN_FLIGHT = 100_000;

    /** Generator instance {@code instance}, the sequence of its next record {@code position}. */
    record InstanceSplit(int instance, long position) implements SourceSplit {
        @Override
        public String splitId() {
            return Integer.toString(instance);
        }
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SplitEnumerator<InstanceSplit, Set<Integer>> createEnumerator(
            SplitEnumeratorContext<InstanceSplit> context) {
        return new Enumerator(context, Set.of());
    }

    @Override
    public SplitEnumerator<InstanceSplit, Set<Integer>> restoreEnumerator(
            SplitEnumeratorContext<InstanceSplit> context, Set<Integer> state) {
        return new Enumerator(context, state);
    }

    @Override
    public SimpleVersionedSerializer<InstanceSplit> getSplitSerializer() {
        return new SplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Set<Integer>> getEnumeratorCheckpointSerializer() {
        return new AssignedSerializer();
    }

    @Override
    public SourceReader<TimedRecord, InstanceSplit> createReader(SourceReaderContext context) {
        return new Reader(spec);
    }

    /**
     * Assigns split i to reader i once. Its state in a checkpoint is the set of readers assigned
     * (their splits are in the readers' state); a split assigned after the last checkpoint comes
     * back on a failure and goes to its restarted reader again, from its position in it.
     */
    private static final class Enumerator implements SplitEnumerator<InstanceSplit, Set<Integer>> {
        private final SplitEnumeratorContext<InstanceSplit> context;
        private final Set<Integer> assigned;
        private final Map<Integer, InstanceSplit> returned = new HashMap<>();

        Enumerator(SplitEnumeratorContext<InstanceSplit> context, Set<Integer> assigned) {
            this.context = context;
            this.assigned = new TreeSet<>(assigned);
        }

        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtaskId, String requesterHostname) {}

        @Override
        public void addSplitsBack(List<InstanceSplit> splits, int subtaskId) {
            for (InstanceSplit split : splits) {
                assigned.remove(split.instance());
                returned.put(split.instance(), split);
            }
        }

        @Override
        public void addReader(int subtaskId) {
            if (assigned.add(subtaskId)) {
                context.assignSplit(returned.getOrDefault(subtaskId, new InstanceSplit(subtaskId, 0)), subtaskId);
                returned.remove(subtaskId);
            }
            context.signalNoMoreSplits(subtaskId);
        }

        @Override
        public Set<Integer> snapshotState(long checkpointId) {
            return new TreeSet<>(assigned);
        }

        @Override
        public void close() {}
    }

    private static final class Reader implements SourceReader<TimedRecord, InstanceSplit> {
        private final ExperimentSpec spec;
        private final CompletableFuture<Void> assigned = new CompletableFuture<>();
        private CompletableFuture<Void> available = assigned;
        private GeneratorInstance generator;
        private InstanceSplit split;

        Reader(ExperimentSpec spec) {
            this.spec = spec;
        }

        @Override
        public void start() {}

        @Override
        public InputStatus pollNext(ReaderOutput<TimedRecord> output) {
            if (generator == null) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            for (int i = 0; i < BATCH; i++) {
                long wait = generator.nanosUntilDue();
                if (wait > 0) {
                    CompletableFuture<Void> due = new CompletableFuture<>();
                    CompletableFuture.delayedExecutor(wait, TimeUnit.NANOSECONDS)
                            .execute(() -> due.complete(null));
                    available = due;
                    return InputStatus.NOTHING_AVAILABLE;
                }
                TimedRecord record = generator.next();
                if (record == null) {
                    return InputStatus.END_OF_INPUT;
                }
                output.collect(record);
            }
            return InputStatus.MORE_AVAILABLE;
        }

        @Override
        public List<InstanceSplit> snapshotState(long checkpointId) {
            return split == null ? List.of() : List.of(new InstanceSplit(split.instance(), generator.position()));
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return available;
        }

        @Override
        public void addSplits(List<InstanceSplit> splits) {
            split = splits.get(0);
            generator = GeneratorInstance.restored(spec, split.instance(), MAX_IN_FLIGHT, split.position());
            assigned.complete(null);
        }

        @Override
        public void notifyNoMoreSplits() {}

        @Override
        public void close() {}
    }

    private static final class SplitSerializer implements SimpleVersionedSerializer<InstanceSplit> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(InstanceSplit split) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(12);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(split.instance());
            out.writeLong(split.position());
            return bytes.toByteArray();
        }

        @Override
        public InstanceSplit deserialize(int version, byte[] serialized) throws IOException {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
            int instance = in.readInt();
            return new InstanceSplit(instance, in.readLong());
        }
    }

    private static final class AssignedSerializer implements SimpleVersionedSerializer<Set<Integer>> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Set<Integer> assigned) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(assigned.size());
            for (int subtask : assigned) {
                out.writeInt(subtask);
            }
            return bytes.toByteArray();
        }

        @Override
        public Set<Integer> deserialize(int version, byte[] serialized) throws IOException {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
            Set<Integer> assigned = new TreeSet<>();
            for (int i = in.readInt(); i > 0; i--) {
                assigned.add(in.readInt());
            }
            return assigned;
        }
    }
}
