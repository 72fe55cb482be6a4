package org.streambench.db;

import org.streambench.generator.SensorRecord;

/** A record as read back from a database, with its BLOB. */
public record StoredRecord(SensorRecord record, byte[] blob) {}
