package org.streambench.operators;

import java.io.Serializable;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.streambench.model.AccessModeName;

/**
 * How the processing operator calls the database: {@code sync}, one blocking call per record (as the
 * study did); {@code batch:N[,linger=MILLISms]}, up to N records per round trip, a batch sent when it
 * is full or its oldest record has waited {@code linger}; {@code async:K}, up to K calls in flight per
 * operator instance. In every mode a key never has two calls in flight, nor a read that overtakes
 * its pending write, so update and mixed keep their read-add-write semantics.
 *
 * @param kind       sync, batch or async
 * @param size       batch:N's N, async:K's K; 1 for sync
 * @param lingerMillis how long a batch's first record may wait for the batch to fill (batch only)
 */
public record AccessMode(Kind kind, int size, long lingerMillis) implements Serializable {

    public enum Kind {
        SYNC,
        BATCH,
        ASYNC;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static final AccessMode SYNC = new AccessMode(Kind.SYNC, 1, 0);
    /** Without ",linger=": a batch waits at most this long for more records. */
    public static final long DEFAULT_LINGER_MILLIS = 20;

    public static final int MAX_SIZE = 100_000;

    private static final Pattern FORM =
            Pattern.compile("(sync)|(batch):(\\d{1,9})(?:,linger=(\\d{1,9})(ms|s))?|(async):(\\d{1,9})");

    /** Parses the form {@link #toString} writes; throws {@link IllegalArgumentException} with a line for the user. */
    public static AccessMode parse(String text) {
        String given = text.trim();
        Matcher m = FORM.matcher(given);
        if (!m.matches()) {
            String hint = given.contains("linger") && !given.startsWith("batch") ? "; linger goes with batch only" : "";
            throw new IllegalArgumentException("--access '" + text
                    + "' must be sync, batch:N[,linger=20ms] or async:K (N, K whole numbers from 1)" + hint);
        }
        if (m.group(1) != null) {
            return SYNC;
        }
        if (m.group(2) != null) {
            int size = size(text, m.group(3));
            long linger = m.group(4) == null
                    ? DEFAULT_LINGER_MILLIS
                    : Long.parseLong(m.group(4)) * (m.group(5).equals("s") ? 1000 : 1);
            return new AccessMode(Kind.BATCH, size, linger);
        }
        return new AccessMode(Kind.ASYNC, size(text, m.group(7)), 0);
    }

    private static int size(String text, String digits) {
        int size = Integer.parseInt(digits);
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException(
                    "--access '" + text + "': the size must be a whole number from 1 to " + MAX_SIZE);
        }
        return size;
    }

    public boolean sync() {
        return kind == Kind.SYNC;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case SYNC -> AccessModeName.SYNC;
            case BATCH -> "batch:" + size + ",linger=" + lingerMillis + "ms";
            case ASYNC -> "async:" + size;
        };
    }
}
