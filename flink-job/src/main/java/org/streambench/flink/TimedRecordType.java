package org.streambench.flink;

import java.io.IOException;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.streambench.generator.TimedRecord;

/**
 * How Flink carries a {@link TimedRecord} from the generator task to the processing task: its
 * fields written one after the other ({@link TimedRecord#writeTo}). Flink's own POJO serializer
 * reads and sets every field by reflection, per record, which cost about a tenth of the job's time
 * against the noop connector.
 */
final class TimedRecordType extends TypeInformation<TimedRecord> {

    private static final long serialVersionUID = 1L;

    static final TimedRecordType INSTANCE = new TimedRecordType();

    private TimedRecordType() {}

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<TimedRecord> getTypeClass() {
        return TimedRecord.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    // the abstract method Flink 1.20 still requires; its SerializerConfig variant calls it
    @Override
    @SuppressWarnings("deprecation")
    public TypeSerializer<TimedRecord> createSerializer(ExecutionConfig config) {
        return Serializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "TimedRecord";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof TimedRecordType;
    }

    @Override
    public int hashCode() {
        return TimedRecordType.class.hashCode();
    }

    @Override
    public boolean canEqual(Object other) {
        return other instanceof TimedRecordType;
    }

    static final class Serializer extends TypeSerializerSingleton<TimedRecord> {

        private static final long serialVersionUID = 1L;

        static final Serializer INSTANCE = new Serializer();

        @Override
        public boolean isImmutableType() {
            return true;
        }

        @Override
        public TimedRecord createInstance() {
            return new TimedRecord("", 0, 0, 0, 0, 0, 0, TimedRecord.UNTIMED);
        }

        @Override
        public TimedRecord copy(TimedRecord from) {
            return from;
        }

        @Override
        public TimedRecord copy(TimedRecord from, TimedRecord reuse) {
            return from;
        }

        @Override
        public int getLength() {
            return -1;
        }

        @Override
        public void serialize(TimedRecord record, DataOutputView target) throws IOException {
            record.writeTo(target);
        }

        @Override
        public TimedRecord deserialize(DataInputView source) throws IOException {
            return TimedRecord.readFrom(source);
        }

        @Override
        public TimedRecord deserialize(TimedRecord reuse, DataInputView source) throws IOException {
            return deserialize(source);
        }

        @Override
        public void copy(DataInputView source, DataOutputView target) throws IOException {
            serialize(deserialize(source), target);
        }

        @Override
        public TypeSerializerSnapshot<TimedRecord> snapshotConfiguration() {
            return new Snapshot();
        }
    }

    /** Restores the serializer by its class alone: it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<TimedRecord> {
        public Snapshot() {
            super(() -> Serializer.INSTANCE);
        }
    }
}
