package org.streambench.generator;

import java.nio.charset.StandardCharsets;

/**
 * The two key spaces, both of exactly {@link SensorRecord#ID_LENGTH} characters.
 * <ul>
 * <li>Existing keys: {@code e} + the index in the prefilled space as 11 decimal digits.</li>
 * <li>New keys: {@code n} + 11 base-36 digits packing a run token, the generator instance and a
 *     sequence number, so keys never collide across parallel instances, nor across runs with
 *     different tokens on the same database.</li>
 * </ul>
 * Lower-case digits and letters only, so case-insensitive collations cannot merge two keys.
 */
public final class Keys {

    public static final int INSTANCE_BITS = 7;
    public static final int SEQUENCE_BITS = 30;
    public static final int TOKEN_BITS = 19;
    public static final int MAX_INSTANCES = 1 << INSTANCE_BITS;
    public static final long MAX_SEQUENCE = (1L << SEQUENCE_BITS) - 1;
    public static final int MAX_TOKEN = (1 << TOKEN_BITS) - 1;
    public static final long MAX_EXISTING_KEYS = 100_000_000_000L;

    private static final byte[] DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.ISO_8859_1);

    private Keys() {}

    public static String existing(long index) {
        if (index < 0 || index >= MAX_EXISTING_KEYS) {
            throw new IllegalArgumentException("existing-key index out of range: " + index);
        }
        return key('e', index, 10);
    }

    public static String fresh(int token, int instance, long sequence) {
        if (token < 0 || token > MAX_TOKEN) {
            throw new IllegalArgumentException("run token out of range: " + token);
        }
        if (instance < 0 || instance >= MAX_INSTANCES) {
            throw new IllegalArgumentException("generator instance out of range: " + instance);
        }
        if (sequence < 0 || sequence > MAX_SEQUENCE) {
            throw new IllegalStateException("generator instance " + instance + " used up its new-key space ("
                    + MAX_SEQUENCE + " keys per run)");
        }
        long packed = ((long) token << (INSTANCE_BITS + SEQUENCE_BITS)) | ((long) instance << SEQUENCE_BITS) | sequence;
        return key('n', packed, 36);
    }

    public static boolean isExisting(String id) {
        return id.charAt(0) == 'e';
    }

    public static long existingIndex(String id) {
        if (!isExisting(id)) {
            throw new IllegalArgumentException("not an existing-space key: " + id);
        }
        return Long.parseLong(id, 1, id.length(), 10);
    }

    /**
     * {@code prefix} and {@code value}'s digits in {@code radix}, zero-padded to the key length. Built in one
     * array, as a generator makes a key per record: number-to-string plus padding cost a seventh of the
     * harness's own per-record time against the noop connector.
     */
    private static String key(char prefix, long value, int radix) {
        byte[] chars = new byte[SensorRecord.ID_LENGTH];
        chars[0] = (byte) prefix;
        long rest = value;
        for (int i = chars.length - 1; i > 0; i--) {
            chars[i] = DIGITS[(int) (rest % radix)];
            rest /= radix;
        }
        return new String(chars, StandardCharsets.ISO_8859_1);
    }
}
