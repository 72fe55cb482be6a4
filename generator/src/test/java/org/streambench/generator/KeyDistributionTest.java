package org.streambench.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The key distributions pick with the frequencies they promise, deterministically, inside the key space. */
class KeyDistributionTest {

    private static final int KEYS = 1000;
    private static final int PICKS = 200_000;

    @Test
    void uniformPicksAsTheStudysRunsDid() {
        SplittableRandom hashes = new SplittableRandom(1);
        for (int i = 0; i < 10_000; i++) {
            long hash = hashes.nextLong();
            assertEquals(Long.remainderUnsigned(hash, KEYS), KeyDistribution.UNIFORM.index(hash, KEYS));
        }
        RecordGenerator before = new RecordGenerator(7, Pattern.UPDATE, KEYS, 3, 0);
        RecordGenerator uniform = new RecordGenerator(7, Pattern.UPDATE, KEYS, KeyDistribution.UNIFORM, 3, 0);
        for (long seq = 0; seq < 1000; seq++) {
            assertEquals(before.record(seq), uniform.record(seq));
        }
    }

    @Test
    void zipfianPicksRankKInProportionToOneOverKToTheS() {
        for (double exponent : new double[] {0.99, 0.5}) {
            KeyDistribution zipfian = KeyDistribution.parse("zipfian:" + exponent);
            Map<Long, Integer> rankOf = new HashMap<>();
            for (int rank = 1; rank <= KEYS; rank++) {
                rankOf.put(KeyDistribution.Zipfian.indexOfRank(rank, KEYS), rank);
            }
            assertEquals(KEYS, rankOf.size(), "the ranks are a permutation of the keys");
            long[] picks = new long[KEYS + 1];
            SplittableRandom hashes = new SplittableRandom(2);
            for (int i = 0; i < PICKS; i++) {
                long index = zipfian.index(hashes.nextLong(), KEYS);
                picks[rankOf.get(index)]++;
            }
            double harmonic = 0;
            for (int k = 1; k <= KEYS; k++) {
                harmonic += Math.pow(k, -exponent);
            }
            for (int k : new int[] {1, 2, 3, 5, 10, 100, 1000}) {
                double p = Math.pow(k, -exponent) / harmonic;
                double expected = p * PICKS;
                double sigma = Math.sqrt(PICKS * p * (1 - p));
                assertTrue(
                        Math.abs(picks[k] - expected) < 5 * sigma,
                        "S " + exponent + ", rank " + k + ": " + picks[k] + " picks, expected " + Math.round(expected));
            }
        }
    }

    @Test
    void zipfianScattersThePopularKeys() {
        long first = KeyDistribution.Zipfian.indexOfRank(1, KEYS);
        long second = KeyDistribution.Zipfian.indexOfRank(2, KEYS);
        assertEquals(0, first);
        assertTrue(Math.abs(second - first) > 1, "rank 2 is not rank 1's neighbour: " + second);
    }

    /**
     * latest: YCSB's read-latest without inserts, the zipfian popularity by recency. Rank k is
     * index keys - k (the prefill writes keys in index order), and ranks are picked as zipfian's.
     */
    @Test
    void latestPicksTheLastPrefilledKeysMostInProportionToOneOverKToTheS() {
        KeyDistribution latest = KeyDistribution.parse("latest");
        long[] picks = new long[KEYS];
        SplittableRandom hashes = new SplittableRandom(4);
        for (int i = 0; i < PICKS; i++) {
            picks[(int) latest.index(hashes.nextLong(), KEYS)]++;
        }
        double harmonic = 0;
        for (int k = 1; k <= KEYS; k++) {
            harmonic += Math.pow(k, -KeyDistribution.DEFAULT_ZIPFIAN_EXPONENT);
        }
        for (int k : new int[] {1, 2, 3, 5, 10, 100, 1000}) {
            double p = Math.pow(k, -KeyDistribution.DEFAULT_ZIPFIAN_EXPONENT) / harmonic;
            double expected = p * PICKS;
            double sigma = Math.sqrt(PICKS * p * (1 - p));
            long picked = picks[KEYS - k];
            assertTrue(
                    Math.abs(picked - expected) < 5 * sigma,
                    "rank " + k + " (index " + (KEYS - k) + "): " + picked + " picks, expected "
                            + Math.round(expected));
        }
    }

    @Test
    void hotspotSendsItsShareOfPicksToItsShareOfKeys() {
        KeyDistribution hotspot = KeyDistribution.parse("hotspot:0.2/0.8");
        long[] picks = new long[KEYS];
        SplittableRandom hashes = new SplittableRandom(3);
        long hot = 0;
        for (int i = 0; i < PICKS; i++) {
            long index = hotspot.index(hashes.nextLong(), KEYS);
            picks[(int) index]++;
            if (index < 200) {
                hot++;
            }
        }
        double sigma = Math.sqrt(PICKS * 0.8 * 0.2);
        assertTrue(Math.abs(hot - 0.8 * PICKS) < 5 * sigma, hot + " hot picks");
        for (int key = 0; key < KEYS; key++) {
            double expected = key < 200 ? 0.8 * PICKS / 200 : 0.2 * PICKS / 800;
            assertTrue(Math.abs(picks[key] - expected) < 6 * Math.sqrt(expected), "key " + key + ": " + picks[key]);
        }
    }

    @Test
    void theFormsReadBackAndAnythingElseIsRefusedInOneLine() {
        assertEquals(KeyDistribution.UNIFORM, KeyDistribution.parse("uniform"));
        assertEquals("zipfian", KeyDistribution.parse("zipfian").cliName());
        assertEquals("zipfian", KeyDistribution.parse("Zipfian:0.99").cliName());
        assertEquals("zipfian:1.2", KeyDistribution.parse("zipfian:1.2").cliName());
        assertEquals("hotspot:0.2/0.8", KeyDistribution.parse("hotspot:0.2/0.8").cliName());
        assertEquals("latest", KeyDistribution.parse("Latest:0.99").cliName());
        assertEquals("latest:0.5", KeyDistribution.parse("latest:0.5").cliName());
        assertNotEquals(KeyDistribution.parse("latest"), KeyDistribution.parse("zipfian"));
        for (String bad : new String[] {
            "zipf",
            "zipfian:0",
            "zipfian:x",
            "latest:0",
            "latest:11",
            "latest:",
            "hotspot:0.2",
            "hotspot:1/0.5",
            "hotspot:0.2/0"
        }) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> KeyDistribution.parse(bad), bad);
            assertEquals(
                    "key distribution '" + bad + "' must be uniform, zipfian[:S] or latest[:S] (0 < S <= 10) or"
                            + " hotspot:F/P (fractions between 0 and 1)",
                    e.getMessage());
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> new RecordGenerator(1, Pattern.READ, 3_000_000_000L, KeyDistribution.parse("zipfian"), 0, 0));
    }

    @Test
    void aRecordsKeyIsAFunctionOfItsSeedInstanceAndSequence() {
        KeyDistribution zipfian = KeyDistribution.parse("zipfian");
        RecordGenerator a = new RecordGenerator(5, Pattern.UPDATE, KEYS, zipfian, 1, 0);
        RecordGenerator b = new RecordGenerator(5, Pattern.UPDATE, KEYS, zipfian, 1, 0);
        for (long seq = 0; seq < 1000; seq++) {
            assertEquals(a.record(seq), b.record(seq));
        }
    }
}
