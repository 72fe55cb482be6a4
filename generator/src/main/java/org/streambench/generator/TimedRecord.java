package org.streambench.generator;

import java.io.Serializable;

/**
 * A generated record on its way to the processing operator, with the time its generator's
 * schedule intended to emit it ({@link EpochClock} nanoseconds). Latency measured from the
 * intended time, not from the actual emit, includes the time a record waited because the
 * generator was behind its schedule (no coordinated omission).
 */
public record TimedRecord(SensorRecord record, long intendedEpochNanos) implements Serializable {

    public String id() {
        return record.id();
    }
}
