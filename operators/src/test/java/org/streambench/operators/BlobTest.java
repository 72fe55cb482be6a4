package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.zip.Deflater;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
}
