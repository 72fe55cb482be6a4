package org.streambench.db;

import org.streambench.generator.SensorRecord;

/** A record as read back from a database, with its BLOB (as the client returned it; records are never compared whole). */
@SuppressWarnings("ArrayRecordComponent")
public record StoredRecord(SensorRecord record, byte[] blob) {}
