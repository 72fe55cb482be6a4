package org.streambench.generator;

import java.io.Serializable;

/**
 * One pseudo acceleration-sensor reading: an identifier of exactly 12 characters,
 * three integer values and three floating-point values.
 */
public record SensorRecord(String id, int int1, int int2, int int3, double double1, double double2, double double3)
        implements Serializable {

    public static final int ID_LENGTH = 12;

    public SensorRecord {
        if (id == null || id.length() != ID_LENGTH) {
            throw new IllegalArgumentException("a sensor id has exactly " + ID_LENGTH + " characters: " + id);
        }
    }

    /** The field-by-field sum of this record and {@code other}, under this record's id. */
    public SensorRecord plus(SensorRecord other) {
        return new SensorRecord(
                id,
                int1 + other.int1,
                int2 + other.int2,
                int3 + other.int3,
                double1 + other.double1,
                double2 + other.double2,
                double3 + other.double3);
    }
}
