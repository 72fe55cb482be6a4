package org.streambench.runner;

import org.streambench.generator.EpochClock;
import org.streambench.generator.SensorRecord;
import org.streambench.generator.TimedRecord;

/** Records as a generator hands them over, for tests that drive the processing operator directly. */
final class TimedRecords {

    private TimedRecords() {}

    /** {@code record}, intended for now. */
    static TimedRecord timed(SensorRecord record) {
        return TimedRecord.of(record, EpochClock.nowNanos());
    }
}
