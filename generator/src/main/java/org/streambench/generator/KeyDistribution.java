package org.streambench.generator;

import java.io.Serializable;
import java.util.Locale;
import org.apache.commons.rng.core.source64.SplitMix64;
import org.apache.commons.rng.sampling.distribution.RejectionInversionZipfSampler;
import org.apache.commons.rng.sampling.distribution.SharedStateDiscreteSampler;

/**
 * How the records of read, update and mixed runs pick among the existing keys, as YCSB's
 * workloads name it: {@code uniform} (every key alike, the study's), {@code zipfian[:S]} (the key
 * of popularity rank k is picked with a probability proportional to 1/k^S, S = 0.99 by default as
 * in YCSB; the ranks scattered over the key space, as YCSB's scrambled zipfian does, so the popular
 * keys are not neighbours), {@code latest[:S]} (the same popularity by recency, as YCSB's latest
 * picks in a table that no insert grows: rank 1 is the last key the prefill wrote, rank 2 the one
 * before it), or {@code hotspot:F/P} (a fraction P of the picks goes to the first fraction F of the
 * keys, e.g. hotspot:0.2/0.8). A pick is a pure function of a record's 64-bit
 * hash, so verification replays it.
 */
public abstract sealed class KeyDistribution implements Serializable {

    public static final KeyDistribution UNIFORM = new Uniform();

    /** YCSB's zipfian constant. */
    public static final double DEFAULT_ZIPFIAN_EXPONENT = 0.99;

    private static final long serialVersionUID = 1L;

    /** The index in [0, keys) of the key that a record with {@code hash} picks. */
    public abstract long index(long hash, long keys);

    /** The form that {@link #parse} reads. */
    public abstract String cliName();

    /** Refuses a key space this distribution cannot pick from. */
    public void check(long keys) {}

    @Override
    public String toString() {
        return cliName();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof KeyDistribution d && d.cliName().equals(cliName());
    }

    @Override
    public int hashCode() {
        return cliName().hashCode();
    }

    /** Reads uniform, zipfian, zipfian:S, latest, latest:S or hotspot:F/P; a one-line IllegalArgumentException otherwise. */
    public static KeyDistribution parse(String text) {
        String form =
                "must be uniform, zipfian[:S] or latest[:S] (0 < S <= 10) or hotspot:F/P (fractions between 0 and 1)";
        String value = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (value.equals("uniform")) {
                return UNIFORM;
            }
            for (boolean byRecency : new boolean[] {false, true}) {
                String name = Zipfian.name(byRecency);
                if (value.equals(name)) {
                    return new Zipfian(DEFAULT_ZIPFIAN_EXPONENT, byRecency);
                }
                if (value.startsWith(name + ":")) {
                    double exponent = Double.parseDouble(value.substring(name.length() + 1));
                    if (exponent > 0 && exponent <= 10) {
                        return new Zipfian(exponent, byRecency);
                    }
                    throw new IllegalArgumentException("key distribution '" + text + "' " + form);
                }
            }
            if (value.startsWith("hotspot:")) {
                String[] parts = value.substring("hotspot:".length()).split("/", -1);
                if (parts.length == 2) {
                    double keys = Double.parseDouble(parts[0]);
                    double picks = Double.parseDouble(parts[1]);
                    if (keys > 0 && keys < 1 && picks > 0 && picks < 1) {
                        return new Hotspot(keys, picks);
                    }
                }
            }
        } catch (NumberFormatException e) {
            // the message below says the form
        }
        throw new IllegalArgumentException("key distribution '" + text + "' " + form);
    }

    /** A number in [0, 1) from {@code hash}'s 53 high bits. */
    static double unit(long hash) {
        return (hash >>> 11) * 0x1.0p-53;
    }

    private static final class Uniform extends KeyDistribution {
        private static final long serialVersionUID = 1L;

        @Override
        public long index(long hash, long keys) {
            return Long.remainderUnsigned(hash, keys);
        }

        @Override
        public String cliName() {
            return "uniform";
        }

        private Object readResolve() {
            return UNIFORM;
        }
    }

    /**
     * Commons RNG's rejection-inversion sampler (exact, constant time per pick, any number of keys
     * up to 2^31 - 1), fed by a SplitMix64 seeded with the record's hash; rank k goes to index
     * (k - 1) x P mod keys, with P a prime above every key count, which is a permutation of the keys;
     * by recency (latest), to index keys - k, the last prefilled key first.
     */
    static final class Zipfian extends KeyDistribution {
        private static final long serialVersionUID = 1L;
        /** The smallest prime above 2^32: coprime with every key count it takes. */
        static final long SCATTER = 4_294_967_311L;

        private final double exponent;
        private final boolean byRecency;

        Zipfian(double exponent, boolean byRecency) {
            this.exponent = exponent;
            this.byRecency = byRecency;
        }

        static String name(boolean byRecency) {
            return byRecency ? "latest" : "zipfian";
        }

        @Override
        public void check(long keys) {
            if (keys > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(
                        "the " + name(byRecency) + " key distribution takes at most " + Integer.MAX_VALUE + " keys");
            }
        }

        /** The sampler's constants for one key count, computed once, not on every record. */
        private record Prepared(long keys, SharedStateDiscreteSampler sampler) {}

        private transient volatile Prepared prepared;

        @Override
        public long index(long hash, long keys) {
            Prepared current = prepared;
            if (current == null || current.keys() != keys) {
                check(keys);
                current =
                        new Prepared(keys, RejectionInversionZipfSampler.of(new SplitMix64(0L), (int) keys, exponent));
                prepared = current;
            }
            long rank = current.sampler()
                    .withUniformRandomProvider(new SplitMix64(hash))
                    .sample();
            return byRecency ? keys - rank : indexOfRank(rank, keys);
        }

        /** Where the key of popularity {@code rank} (from 1) lies. */
        static long indexOfRank(long rank, long keys) {
            return Math.floorMod((rank - 1) * (SCATTER % keys), keys);
        }

        @Override
        public String cliName() {
            return name(byRecency) + (exponent == DEFAULT_ZIPFIAN_EXPONENT ? "" : ":" + exponent);
        }
    }

    private static final class Hotspot extends KeyDistribution {
        private static final long serialVersionUID = 1L;

        private final double keysFraction;
        private final double picksFraction;

        Hotspot(double keysFraction, double picksFraction) {
            this.keysFraction = keysFraction;
            this.picksFraction = picksFraction;
        }

        @Override
        public long index(long hash, long keys) {
            long hot = Math.max(1, Math.min(keys, (long) Math.ceil(keysFraction * keys)));
            double u = unit(hash);
            if (u < picksFraction || hot == keys) {
                return (long) (u / picksFraction * hot) % hot;
            }
            return hot + (long) ((u - picksFraction) / (1 - picksFraction) * (keys - hot)) % (keys - hot);
        }

        @Override
        public String cliName() {
            return "hotspot:" + keysFraction + "/" + picksFraction;
        }
    }
}
