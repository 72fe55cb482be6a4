package org.streambench.flink;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;
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
 * generator instance i. A reader emits until the runner stops the job, then ends its input,
 * so Flink drains every emitted record through the processing operator before the job ends.
 * A throttled reader never blocks the task's mailbox thread while it waits for the next record
 * to be due: it reports nothing available, with a future completed when the record is due.
 */
final class GeneratorSource implements Source<TimedRecord, GeneratorSource.InstanceSplit, Integer> {

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

    record InstanceSplit(int instance) implements SourceSplit {
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
    public SplitEnumerator<InstanceSplit, Integer> createEnumerator(SplitEnumeratorContext<InstanceSplit> context) {
        return new Enumerator(context);
    }

    @Override
    public SplitEnumerator<InstanceSplit, Integer> restoreEnumerator(
            SplitEnumeratorContext<InstanceSplit> context, Integer state) {
        return new Enumerator(context);
    }

    @Override
    public SimpleVersionedSerializer<InstanceSplit> getSplitSerializer() {
        return new IntSerializer<>(InstanceSplit::instance, InstanceSplit::new);
    }

    @Override
    public SimpleVersionedSerializer<Integer> getEnumeratorCheckpointSerializer() {
        return new IntSerializer<>(i -> i, i -> i);
    }

    @Override
    public SourceReader<TimedRecord, InstanceSplit> createReader(SourceReaderContext context) {
        return new Reader(spec);
    }

    private static final class Enumerator implements SplitEnumerator<InstanceSplit, Integer> {
        private final SplitEnumeratorContext<InstanceSplit> context;

        Enumerator(SplitEnumeratorContext<InstanceSplit> context) {
            this.context = context;
        }

        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtaskId, String requesterHostname) {}

        @Override
        public void addSplitsBack(List<InstanceSplit> splits, int subtaskId) {}

        @Override
        public void addReader(int subtaskId) {
            context.assignSplit(new InstanceSplit(subtaskId), subtaskId);
            context.signalNoMoreSplits(subtaskId);
        }

        @Override
        public Integer snapshotState(long checkpointId) {
            return 0;
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
            return split == null ? List.of() : List.of(split);
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return available;
        }

        @Override
        public void addSplits(List<InstanceSplit> splits) {
            split = splits.get(0);
            generator = GeneratorInstance.of(spec, split.instance(), MAX_IN_FLIGHT);
            assigned.complete(null);
        }

        @Override
        public void notifyNoMoreSplits() {}

        @Override
        public void close() {}
    }

    private static final class IntSerializer<T> implements SimpleVersionedSerializer<T> {
        private final ToIntFunction<T> toInt;
        private final IntFunction<T> fromInt;

        IntSerializer(ToIntFunction<T> toInt, IntFunction<T> fromInt) {
            this.toInt = toInt;
            this.fromInt = fromInt;
        }

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(T value) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(4);
            new DataOutputStream(bytes).writeInt(toInt.applyAsInt(value));
            return bytes.toByteArray();
        }

        @Override
        public T deserialize(int version, byte[] serialized) throws IOException {
            return fromInt.apply(new DataInputStream(new ByteArrayInputStream(serialized)).readInt());
        }
    }
}
