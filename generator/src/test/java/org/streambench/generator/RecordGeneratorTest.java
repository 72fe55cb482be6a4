package org.streambench.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecordGeneratorTest {

    private static final long SEED = 42;

    @Test
    void insertKeysNeverCollideAcrossParallelInstancesAndRunTokens() {
        Set<String> seen = new HashSet<>();
        int perInstance = 20_000;
        for (int token : new int[] {0, 1, Keys.MAX_TOKEN}) {
            for (int instance = 0; instance < 4; instance++) {
                RecordGenerator generator = new RecordGenerator(SEED, Pattern.INSERT, 0, token, instance);
                for (long seq = 0; seq < perInstance; seq++) {
                    String id = generator.record(seq).id();
                    assertTrue(seen.add(id), "duplicate new key " + id);
                    assertTrue(!Keys.isExisting(id), "insert key in the existing space: " + id);
                }
            }
        }
        assertEquals(3 * 4 * perInstance, seen.size());
    }

    @Test
    void newKeysKeepTwelveCharactersAtTheEdgesOfTheirSpace() {
        assertEquals(12, Keys.fresh(0, 0, 0).length());
        assertEquals(
                12,
                Keys.fresh(Keys.MAX_TOKEN, Keys.MAX_INSTANCES - 1, Keys.MAX_SEQUENCE)
                        .length());
        assertEquals(12, Keys.existing(Keys.MAX_EXISTING_KEYS - 1).length());
        assertThrows(IllegalStateException.class, () -> Keys.fresh(0, 0, Keys.MAX_SEQUENCE + 1));
        assertThrows(IllegalArgumentException.class, () -> Keys.fresh(0, Keys.MAX_INSTANCES, 0));
    }

    @Test
    void keysAreThePrefixAndTheZeroPaddedDigits() {
        for (long index : new long[] {0, 7, 42, 123_456_789, Keys.MAX_EXISTING_KEYS - 1}) {
            assertEquals(String.format(Locale.ROOT, "e%011d", index), Keys.existing(index));
        }
        for (long sequence : new long[] {0, 35, 36, 999_999, Keys.MAX_SEQUENCE}) {
            long packed = ((long) Keys.MAX_TOKEN << (Keys.INSTANCE_BITS + Keys.SEQUENCE_BITS))
                    | (3L << Keys.SEQUENCE_BITS)
                    | sequence;
            String digits = Long.toString(packed, 36);
            assertEquals("n" + "0".repeat(11 - digits.length()) + digits, Keys.fresh(Keys.MAX_TOKEN, 3, sequence));
        }
        assertEquals("n00000000001", Keys.fresh(0, 0, 1));
    }

    @Test
    void readAndUpdateKeysComeOnlyFromThePrefilledSpace() {
        long keys = 500;
        for (Pattern pattern : new Pattern[] {Pattern.READ, Pattern.UPDATE}) {
            Set<Long> indices = new HashSet<>();
            RecordGenerator generator = new RecordGenerator(SEED, pattern, keys, 3, 1);
            for (long seq = 0; seq < 50_000; seq++) {
                String id = generator.record(seq).id();
                assertTrue(Keys.isExisting(id), id);
                long index = Keys.existingIndex(id);
                assertTrue(index >= 0 && index < keys, id);
                indices.add(index);
            }
            assertEquals(keys, indices.size(), "uniform draws over 500 keys should touch them all");
        }
    }

    @Test
    void mixedIsHalfNewHalfExisting() {
        long keys = 1000;
        RecordGenerator generator = new RecordGenerator(SEED, Pattern.MIXED, keys, 5, 0);
        int records = 100_000;
        int fresh = 0;
        for (long seq = 0; seq < records; seq++) {
            SensorRecord record = generator.record(seq);
            assertEquals(!Keys.isExisting(record.id()), generator.isNewKey(seq));
            if (generator.isNewKey(seq)) {
                fresh++;
            } else {
                assertTrue(Keys.existingIndex(record.id()) < keys);
            }
        }
        double share = fresh / (double) records;
        assertTrue(share > 0.49 && share < 0.51, "share of new keys " + share);
    }

    @Test
    void sameSeedSameRecordsOtherSeedOtherRecords() {
        RecordGenerator a = new RecordGenerator(SEED, Pattern.UPDATE, 1000, 0, 0);
        RecordGenerator b = new RecordGenerator(SEED, Pattern.UPDATE, 1000, 0, 0);
        RecordGenerator c = new RecordGenerator(SEED + 1, Pattern.UPDATE, 1000, 0, 0);
        RecordGenerator otherInstance = new RecordGenerator(SEED, Pattern.UPDATE, 1000, 0, 1);
        int differentSeed = 0;
        int differentInstance = 0;
        for (long seq = 0; seq < 1000; seq++) {
            assertEquals(a.record(seq), b.record(seq));
            differentSeed += a.record(seq).equals(c.record(seq)) ? 0 : 1;
            differentInstance += a.record(seq).equals(otherInstance.record(seq)) ? 0 : 1;
        }
        assertTrue(differentSeed > 990, "seed must change the stream");
        assertTrue(differentInstance > 990, "instances must not emit the same stream");
    }

    @Test
    void valuesStayInTheirDocumentedRanges() {
        RecordGenerator generator = new RecordGenerator(SEED, Pattern.UPDATE, 10, 0, 0);
        for (long seq = 0; seq < 10_000; seq++) {
            SensorRecord r = generator.record(seq);
            for (int v : new int[] {r.int1(), r.int2(), r.int3()}) {
                assertTrue(v >= 0 && v < 1000, "int " + v);
            }
            for (double v : new double[] {r.double1(), r.double2(), r.double3()}) {
                assertTrue(v >= -10 && v < 10, "double " + v);
            }
        }
    }

    @Test
    void prefilledEntriesHaveTheirOwnValuesInTheDocumentedRangesAndTheExistingKeys() {
        Set<List<Object>> distinctValues = new HashSet<>();
        for (long index = 0; index < 1000; index++) {
            SensorRecord r = RecordGenerator.prefill(index);
            assertEquals(Keys.existing(index), r.id());
            for (int v : new int[] {r.int1(), r.int2(), r.int3()}) {
                assertTrue(v >= 0 && v < 1000, "int " + v);
            }
            for (double v : new double[] {r.double1(), r.double2(), r.double3()}) {
                assertTrue(v >= -10 && v < 10, "double " + v);
            }
            distinctValues.add(List.of(r.int1(), r.int2(), r.int3(), r.double1(), r.double2(), r.double3()));
        }
        assertTrue(
                distinctValues.size() > 990,
                "only " + distinctValues.size() + " distinct value tuples in 1000 prefilled entries");
    }

    @Test
    void plusAddsFieldByFieldAndKeepsTheId() {
        SensorRecord a = new SensorRecord("e00000000001", 1, 2, 3, 0.5, 1.5, -2.0);
        SensorRecord b = new SensorRecord("e00000000002", 10, 20, 30, 1.0, 1.0, 1.0);
        assertEquals(new SensorRecord("e00000000001", 11, 22, 33, 1.5, 2.5, -1.0), a.plus(b));
        assertThrows(IllegalArgumentException.class, () -> new SensorRecord("short", 0, 0, 0, 0, 0, 0));
    }

    @Test
    void patternsParseByTheirCliNames() {
        assertEquals(Pattern.MIXED, Pattern.parse("mixed"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Pattern.parse("delete"));
        assertTrue(e.getMessage().contains("read, insert, update, mixed"), e.getMessage());
    }
}
