package org.streambench.runner.experiment;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.streambench.local.UserError;

/**
 * Parses command-line values into numbers, with one-line errors that say how to fix them. Digits
 * are ASCII only: Java's own parsing also takes any Unicode digit ('١٠٠' as 100), and a command
 * line that reads as something else to its writer is refused rather than guessed.
 */
public final class Inputs {

    static final int MAX_PORT = 65535;
    /**
     * The highest --rate taken, in records per second: 40 times the harness's own measured ceiling
     * (Flink x noop, about 2.5 M records/s; docs/measurements/2026-11-23-harness-ceiling.md).
     */
    public static final double MAX_RATE = 100_000_000;

    private static final Pattern DURATION = Pattern.compile("([0-9]+)(s|m|h)?");
    private static final Pattern MILLIS = Pattern.compile("([0-9]{1,9})(ms|s|m)");
    private static final long MAX_MILLIS = 3_600_000;
    private static final Pattern WHOLE = Pattern.compile("[+-]?[0-9]{1,19}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,19}(\\.[0-9]{1,19})?");
    /** Ten digits fit a long and are more than any duration in seconds an int can hold. */
    private static final int MAX_DURATION_DIGITS = 10;

    private Inputs() {}

    /** "30s", "2m", "1h" or a plain number of seconds. */
    public static int seconds(String option, String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new UserError(option + " '" + text + "' is not a duration; write it like 30s, 2m or 1h");
        }
        long factor =
                m.group(2) == null || m.group(2).equals("s") ? 1 : m.group(2).equals("m") ? 60 : 3600;
        String digits = m.group(1).replaceFirst("^0+(?=[0-9])", "");
        if (digits.length() > MAX_DURATION_DIGITS || Long.parseLong(digits) > Integer.MAX_VALUE / factor) {
            throw new UserError(
                    option + " '" + text + "' is too long; the longest is " + Integer.MAX_VALUE / 3600 + "h");
        }
        return (int) (Long.parseLong(digits) * factor);
    }

    /** "500ms", "10s", "2m": a duration in milliseconds, at most an hour. */
    public static long millis(String option, String text) {
        Matcher m = MILLIS.matcher(text.trim());
        if (!m.matches()) {
            throw new UserError(option + " '" + text + "' is not a duration; write it like 500ms, 10s or 2m");
        }
        long factor = m.group(2).equals("ms") ? 1 : m.group(2).equals("s") ? 1000 : 60_000;
        long millis = Long.parseLong(m.group(1)) * factor;
        if (millis > MAX_MILLIS) {
            throw new UserError(option + " '" + text + "' is too long; the longest is 60m");
        }
        return millis;
    }

    /**
     * A whole number written in ASCII digits with an optional sign; throws {@link NumberFormatException}
     * for anything else (other scripts' digits, fractions, exponents, a number beyond a long).
     */
    public static long whole(String text) {
        String trimmed = text.trim();
        if (!WHOLE.matcher(trimmed).matches()) {
            throw new NumberFormatException("not a whole number in ASCII digits: " + text);
        }
        return Long.parseLong(trimmed);
    }

    /** A TCP port, 1 to 65535. */
    public static int port(String option, String text) {
        return port(option, text, false);
    }

    /** A TCP port; with {@code zeroMeansAny}, 0 picks a free port. */
    public static int port(String option, String text, boolean zeroMeansAny) {
        try {
            long port = whole(text);
            if (port >= (zeroMeansAny ? 0 : 1) && port <= MAX_PORT) {
                return (int) port;
            }
        } catch (NumberFormatException notANumber) {
            // fall through to the message below
        }
        throw new UserError(option + " '" + text + "' must be a port from " + (zeroMeansAny ? "0 (any free port)" : "1")
                + " to " + MAX_PORT);
    }

    public static long positiveLong(String option, String text, String hint) {
        try {
            long value = whole(text);
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // fall through to the message below
        }
        throw new UserError(option + " '" + text + "' must be a positive whole number" + hint);
    }

    public static int positiveInt(String option, String text, String hint) {
        long value = positiveLong(option, text, hint);
        if (value > Integer.MAX_VALUE) {
            throw new UserError(option + " '" + text + "' is too large" + hint);
        }
        return (int) value;
    }

    /** A plain decimal number of at least 0 (digits and at most one point: no exponent, sign or suffix). */
    static double nonNegative(String option, String text, String hint) {
        if (DECIMAL.matcher(text.trim()).matches()) {
            return Double.parseDouble(text.trim());
        }
        throw new UserError(
                option + " '" + text + "' must be a number >= 0" + hint + ", in plain digits (e.g. 2500 or 0.5)");
    }

    /** --rate: records per second over all generators, 0 for unthrottled, at most {@link #MAX_RATE}. */
    public static double rate(String text) {
        double rate = nonNegative("--rate", text, " of records per second (0 = unthrottled)");
        if (rate > MAX_RATE) {
            throw new UserError(String.format(
                    Locale.ROOT,
                    "--rate %s is more than %,.0f records/s, far beyond what a generator here keeps (the harness's"
                            + " own ceiling is about 2.5 M); give a lower rate, or 0 for unthrottled",
                    text.trim(),
                    MAX_RATE));
        }
        return rate;
    }
}
