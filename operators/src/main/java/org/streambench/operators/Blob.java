package org.streambench.operators;

import java.util.SplittableRandom;

/**
 * The BLOB stored with every record: prepared once per run at the configured size, never per
 * write. Its bytes are pseudo-random, as binary sensor data (often compressed or encrypted
 * already) is: no database can store it in less space than its size, so a 100,000 B run moves and
 * stores 100,000 B per record. The same seed gives the same bytes on every engine.
 */
public final class Blob {

    /** Keeps the BLOB's random stream apart from the generator's, which uses the same seed. */
    private static final long SALT = 0x5DEECE66DL;

    private Blob() {
    }

    public static byte[] of(int size, long seed) {
        if (size <= 0) {
            throw new IllegalArgumentException("BLOB size must be a positive number of bytes: " + size);
        }
        byte[] blob = new byte[size];
        new SplittableRandom(seed ^ SALT).nextBytes(blob);
        return blob;
    }

    /** The BLOB of a run. */
    public static byte[] of(ExperimentSpec spec) {
        return of(spec.blobBytes(), spec.seed());
    }
}
