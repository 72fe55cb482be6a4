package org.streambench.operators;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The BLOB stored with every record: prepared once per run at the configured size, never per
 * write. Its bytes are pseudo-random, as binary sensor data (often compressed or encrypted
 * already) is: no database can store it in less space than its size, so a 100,000 B run moves and
 * stores 100,000 B per record. The same seed gives the same bytes on every engine.
 * <p>
 * A run does not store one BLOB everywhere: a database that compresses blocks of rows (Cassandra's
 * LZ4 chunks) would find the same bytes again in the neighbouring rows and store them in less space
 * (Cassandra kept 100 rows of one 10,000 B BLOB in 63 % of their size). Each key gets one of a
 * {@link Pool} of distinct BLOBs, prepared once per run.
 */
public final class Blob {

    /** Keeps the BLOB's random stream apart from the generator's, which uses the same seed. */
    private static final long SALT = 0x5DEECE66DL;

    private Blob() {}

    public static byte[] of(int size, long seed) {
        if (size <= 0) {
            throw new IllegalArgumentException("BLOB size must be a positive number of bytes: " + size);
        }
        byte[] blob = new byte[size];
        new SplittableRandom(seed ^ SALT).nextBytes(blob);
        return blob;
    }

    /** About this many bytes of distinct BLOBs per run (at most {@value #MAX_DISTINCT} of them). */
    static final long POOL_BYTES = 8L << 20;

    static final int MAX_DISTINCT = 1024;
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private static final Map<String, Pool> POOLS = new ConcurrentHashMap<>();

    /** The distinct BLOBs of a run, prepared once per JVM and shared by its operator instances. */
    public static Pool pool(ExperimentSpec spec) {
        return pool(spec.blobBytes(), spec.seed());
    }

    public static Pool pool(int size, long seed) {
        return POOLS.computeIfAbsent(size + "/" + seed, k -> {
            int count = (int) Math.max(1, Math.min(MAX_DISTINCT, POOL_BYTES / size));
            byte[][] blobs = new byte[count][];
            for (int i = 0; i < count; i++) {
                blobs[i] = of(size, seed + i * GOLDEN_GAMMA);
            }
            return new Pool(blobs);
        });
    }

    /** Distinct BLOBs of one size; a key always gets the same one, so a run is verified key by key. */
    public static final class Pool {
        private final byte[][] blobs;

        private Pool(byte[][] blobs) {
            this.blobs = blobs;
        }

        public byte[] forKey(String id) {
            long h = id.hashCode() * GOLDEN_GAMMA; // spreads keys that differ in one character over the whole pool
            h ^= h >>> 29;
            return blobs[(int) Math.floorMod(h, (long) blobs.length)];
        }

        public int distinct() {
            return blobs.length;
        }
    }
}
