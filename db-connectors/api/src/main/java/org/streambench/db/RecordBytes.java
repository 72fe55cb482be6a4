package org.streambench.db;

import java.nio.ByteBuffer;
import org.streambench.generator.SensorRecord;

/**
 * A record and its BLOB as one byte array, for key-value stores that hold a value per key
 * (Hazelcast, Ignite): the three ints and three doubles (36 bytes, big-endian), then the BLOB. A
 * byte array needs none of the suite's classes on the servers.
 */
public final class RecordBytes {

    /** The bytes before the BLOB. */
    public static final int HEADER_BYTES = 3 * Integer.BYTES + 3 * Double.BYTES;

    private RecordBytes() {}

    public static byte[] encode(SensorRecord r, byte[] blob) {
        return ByteBuffer.allocate(HEADER_BYTES + blob.length)
                .putInt(r.int1())
                .putInt(r.int2())
                .putInt(r.int3())
                .putDouble(r.double1())
                .putDouble(r.double2())
                .putDouble(r.double3())
                .put(blob)
                .array();
    }

    public static StoredRecord decode(String id, byte[] value) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        SensorRecord record = new SensorRecord(
                id,
                buffer.getInt(),
                buffer.getInt(),
                buffer.getInt(),
                buffer.getDouble(),
                buffer.getDouble(),
                buffer.getDouble());
        byte[] blob = new byte[buffer.remaining()];
        buffer.get(blob);
        return new StoredRecord(record, blob);
    }

    /** The length of the BLOB inside {@code value}. */
    public static int blobLength(byte[] value) {
        return value.length - HEADER_BYTES;
    }
}
