package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.streambench.generator.Keys;

class BlobTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 10_000, 100_000})
    void theSameSeedGivesTheSameBytesOnEveryEngineAndAnotherSeedOthers(int size) {
        byte[] blob = Blob.of(size, 42);
        assertEquals(size, blob.length);
        assertArrayEquals(blob, Blob.of(size, 42));
        if (size > 1) {
            assertFalse(Arrays.equals(blob, Blob.of(size, 43)));
        }
    }

    /** What a database's compressor (pglz, LZ4, snappy) could save, deflate at its best would find too. */
    @ParameterizedTest
    @ValueSource(ints = {10_000, 100_000})
    void aBlobCannotBeCompressed(int size) {
        byte[] blob = Blob.of(size, 1);
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        deflater.setInput(blob);
        deflater.finish();
        byte[] out = new byte[size * 2];
        int compressed = deflater.deflate(out);
        deflater.end();
        assertTrue(compressed >= size * 0.99, "a " + size + " B BLOB deflates to " + compressed + " B");
    }

    @Test
    void aRunHasManyDistinctBlobsAndAKeyAlwaysGetsTheSameOne() {
        Blob.Pool pool = Blob.pool(10_000, 7);
        assertTrue(pool.distinct() >= 800, "about 8 MB of distinct 10,000 B BLOBs: " + pool.distinct());
        assertEquals(83, Blob.pool(100_000, 7).distinct(), "8 MiB / 100,000 B");
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            String id = Keys.existing(i);
            assertSame(pool.forKey(id), Blob.pool(10_000, 7).forKey(id), "the same key, the same BLOB");
            seen.add(Arrays.hashCode(pool.forKey(id)));
        }
        assertTrue(seen.size() > 150, "neighbouring keys get different BLOBs: " + seen.size() + " of 200");
    }
}
