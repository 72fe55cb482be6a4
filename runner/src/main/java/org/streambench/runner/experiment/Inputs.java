package org.streambench.runner.experiment;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.streambench.local.UserError;

/** Parses command-line values into numbers, with one-line errors that say how to fix them. */
public final class Inputs {

    static final int MAX_PORT = 65535;
    private static final Pattern DURATION = Pattern.compile("(\\d+)(s|m|h)?");
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
        String digits = m.group(1).replaceFirst("^0+(?=\\d)", "");
        if (digits.length() > MAX_DURATION_DIGITS || Long.parseLong(digits) > Integer.MAX_VALUE / factor) {
            throw new UserError(
                    option + " '" + text + "' is too long; the longest is " + Integer.MAX_VALUE / 3600 + "h");
        }
        return (int) (Long.parseLong(digits) * factor);
    }

    /** A TCP port, 1 to 65535. */
    public static int port(String option, String text) {
        return port(option, text, false);
    }

    /** A TCP port; with {@code zeroMeansAny}, 0 picks a free port. */
    public static int port(String option, String text, boolean zeroMeansAny) {
        try {
            int port = Integer.parseInt(text.trim());
            if (port >= (zeroMeansAny ? 0 : 1) && port <= MAX_PORT) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // fall through to the message below
        }
        throw new UserError(option + " '" + text + "' must be a port from " + (zeroMeansAny ? "0 (any free port)" : "1")
                + " to " + MAX_PORT);
    }

    public static long positiveLong(String option, String text, String hint) {
        try {
            long value = Long.parseLong(text.trim());
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

    static double nonNegative(String option, String text, String hint) {
        try {
            double value = Double.parseDouble(text.trim());
            if (value >= 0 && Double.isFinite(value)) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // fall through to the message below
        }
        throw new UserError(option + " '" + text + "' must be a number >= 0" + hint);
    }
}
