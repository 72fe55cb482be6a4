package org.streambench.runner;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses command-line values into numbers, with one-line errors that say how to fix them. */
final class Inputs {

    private static final Pattern DURATION = Pattern.compile("(\\d+)(s|m|h)?");

    private Inputs() {
    }

    /** "30s", "2m", "1h" or a plain number of seconds. */
    static int seconds(String option, String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new UserError(option + " '" + text + "' is not a duration; write it like 30s, 2m or 1h");
        }
        long value = Long.parseLong(m.group(1));
        long factor = m.group(2) == null || m.group(2).equals("s") ? 1 : m.group(2).equals("m") ? 60 : 3600;
        if (value * factor > Integer.MAX_VALUE) {
            throw new UserError(option + " '" + text + "' is too long");
        }
        return (int) (value * factor);
    }

    static long positiveLong(String option, String text, String hint) {
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

    static int positiveInt(String option, String text, String hint) {
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
