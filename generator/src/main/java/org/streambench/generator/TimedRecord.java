package org.streambench.generator;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;

/**
 * A generated record on its way to the processing operator, with the time its generator's
 * schedule intended to emit it ({@link EpochClock} nanoseconds). Latency measured from the
 * intended time, not from the actual emit, includes the time a record waited because the
 * generator was behind its schedule (no coordinated omission). Flat rather than wrapping a
 * {@link SensorRecord}: every engine serializes it per record, and one object costs half of two.
 */
public record TimedRecord(
        String id,
        int int1,
        int int2,
        int int3,
        double double1,
        double double2,
        double double3,
        long intendedEpochNanos)
        implements Serializable {

    /** The {@code intendedEpochNanos} of a record that is not timed end to end (unthrottled runs time a sample). */
    public static final long UNTIMED = 0;

    public static TimedRecord of(SensorRecord record, long intendedEpochNanos) {
        return new TimedRecord(
                record.id(),
                record.int1(),
                record.int2(),
                record.int3(),
                record.double1(),
                record.double2(),
                record.double3(),
                intendedEpochNanos);
    }

    /** Writes the fields one after the other: how the engines carry a record between their tasks. */
    public void writeTo(DataOutput out) throws IOException {
        out.writeUTF(id);
        out.writeInt(int1);
        out.writeInt(int2);
        out.writeInt(int3);
        out.writeDouble(double1);
        out.writeDouble(double2);
        out.writeDouble(double3);
        out.writeLong(intendedEpochNanos);
    }

    /** A record as {@link #writeTo} wrote it. */
    public static TimedRecord readFrom(DataInput in) throws IOException {
        return new TimedRecord(
                in.readUTF(),
                in.readInt(),
                in.readInt(),
                in.readInt(),
                in.readDouble(),
                in.readDouble(),
                in.readDouble(),
                in.readLong());
    }

    public SensorRecord record() {
        return new SensorRecord(id, int1, int2, int3, double1, double2, double3);
    }
}
