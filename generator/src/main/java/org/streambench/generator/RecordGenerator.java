package org.streambench.generator;

/**
 * Deterministic record source for one generator instance: record number {@code seq} is a pure
 * function of (seed, instance, seq), so a run can be replayed exactly from the counts each
 * instance emitted. That is what post-run verification relies on.
 */
public final class RecordGenerator {

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private final long seed;
    private final Pattern pattern;
    private final long existingKeys;
    private final KeyDistribution keyDistribution;
    private final int runToken;
    private final int instance;

    /** A generator whose records pick existing keys uniformly, as the study's did. */
    public RecordGenerator(long seed, Pattern pattern, long existingKeys, int runToken, int instance) {
        this(seed, pattern, existingKeys, KeyDistribution.UNIFORM, runToken, instance);
    }

    public RecordGenerator(
            long seed,
            Pattern pattern,
            long existingKeys,
            KeyDistribution keyDistribution,
            int runToken,
            int instance) {
        if (pattern.needsExistingKeys() && existingKeys <= 0) {
            throw new IllegalArgumentException(
                    "pattern " + pattern.cliName() + " needs a prefilled key space (keys > 0)");
        }
        if (existingKeys > Keys.MAX_EXISTING_KEYS) {
            throw new IllegalArgumentException("at most " + Keys.MAX_EXISTING_KEYS + " keys");
        }
        if (pattern.needsExistingKeys()) {
            keyDistribution.check(existingKeys);
        }
        this.seed = seed;
        this.pattern = pattern;
        this.existingKeys = existingKeys;
        this.keyDistribution = keyDistribution;
        this.runToken = runToken;
        this.instance = instance;
        Keys.fresh(runToken, instance, 0); // validates token and instance up front
    }

    /** Whether record {@code seq} carries a key that does not exist in the database yet. */
    public boolean isNewKey(long seq) {
        return switch (pattern) {
            case INSERT -> true;
            case READ, UPDATE -> false;
            case MIXED -> (mix(seq, 7) & 1L) == 0;
        };
    }

    public SensorRecord record(long seq) {
        return timed(seq, TimedRecord.UNTIMED).record();
    }

    /** Record {@code seq} as the generator operator emits it, intended for {@code intendedEpochNanos}. */
    public TimedRecord timed(long seq, long intendedEpochNanos) {
        String id = isNewKey(seq)
                ? Keys.fresh(runToken, instance, seq)
                : Keys.existing(keyDistribution.index(mix(seq, 1), existingKeys));
        return values(id, mix(seq, 2), intendedEpochNanos);
    }

    /** The values the prefill stores under existing key {@code index}; independent of the seed. */
    public static SensorRecord prefill(long index) {
        return values(Keys.existing(index), splitMix(index * GOLDEN_GAMMA + 0x5EED), TimedRecord.UNTIMED)
                .record();
    }

    /** Built directly as the record the engines carry: one object per record, the per-record cost of the harness's ceiling. */
    @SuppressWarnings("ConstantOverflow") // SplitMix's Weyl sequence wraps around by design
    private static TimedRecord values(String id, long state, long intendedEpochNanos) {
        long a = splitMix(state + GOLDEN_GAMMA);
        long b = splitMix(state + 2 * GOLDEN_GAMMA);
        long c = splitMix(state + 3 * GOLDEN_GAMMA);
        return new TimedRecord(
                id,
                (int) Long.remainderUnsigned(a, 1000),
                (int) Long.remainderUnsigned(b, 1000),
                (int) Long.remainderUnsigned(c, 1000),
                acceleration(splitMix(a)),
                acceleration(splitMix(b)),
                acceleration(splitMix(c)),
                intendedEpochNanos);
    }

    /** A value in [-10, 10): an acceleration in m/s². */
    private static double acceleration(long bits) {
        return ((bits >>> 11) * 0x1.0p-53) * 20.0 - 10.0;
    }

    private long mix(long seq, int stream) {
        long h = splitMix(seed ^ (instance * 0xD1B54A32D192ED03L));
        h = splitMix(h ^ (seq * GOLDEN_GAMMA));
        return splitMix(h + stream * GOLDEN_GAMMA);
    }

    private static long splitMix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
