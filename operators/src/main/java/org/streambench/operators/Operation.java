package org.streambench.operators;

import java.util.Locale;

/** The database call that completed a record; a label on the metrics. */
public enum Operation {
    READ,
    INSERT,
    UPDATE;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
