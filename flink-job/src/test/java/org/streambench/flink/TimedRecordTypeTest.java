package org.streambench.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.TimedRecord;

class TimedRecordTypeTest {

    private final TypeSerializer<TimedRecord> serializer =
            TimedRecordType.INSTANCE.createSerializer(new SerializerConfigImpl());

    @Test
    void everyFieldArrivesAsItWasSent() throws Exception {
        RecordGenerator generator = new RecordGenerator(42, Pattern.MIXED, 1000, 7, 3);
        List<TimedRecord> sent = List.of(
                generator.timed(0, TimedRecord.UNTIMED),
                generator.timed(1, 1_795_467_955_497_000_123L),
                generator.timed(2, Long.MAX_VALUE),
                new TimedRecord("e00000000042", Integer.MIN_VALUE, -1, Integer.MAX_VALUE, -0.0, Double.NaN, 9.99, 1));
        DataOutputSerializer out = new DataOutputSerializer(64);
        for (TimedRecord record : sent) {
            serializer.serialize(record, out);
        }
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        for (TimedRecord record : sent) {
            assertEquals(record, serializer.deserialize(in));
        }
        assertEquals(0, in.available(), "nothing left over");
    }

    @Test
    void aSnapshotRestoresTheSameSerializer() throws Exception {
        TypeSerializerSnapshot<TimedRecord> snapshot = serializer.snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(16);
        snapshot.writeSnapshot(out);
        TypeSerializerSnapshot<TimedRecord> restored = new TimedRecordType.Snapshot();
        restored.readSnapshot(
                snapshot.getCurrentVersion(),
                new DataInputDeserializer(out.getCopyOfBuffer()),
                getClass().getClassLoader());
        assertSame(TimedRecordType.Serializer.INSTANCE, restored.restoreSerializer());
    }
}
