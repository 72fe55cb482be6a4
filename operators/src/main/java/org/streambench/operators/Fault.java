package org.streambench.operators;

import java.io.Serializable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fault the run injects into its own pipeline, {@code afterMillis} after the generators started:
 * <ul>
 * <li>{@code fail-task}: one processing operator instance fails abruptly in the middle of a record
 * (an exception out of the engine's task, without flushing or closing anything), as a crashed
 * worker looks to the engine's own failure handling;
 * <li>{@code fail-checkpoint}: one instance fails the same way while it takes the first checkpoint
 * after that time, once it handed its state over and before the checkpoint completes: the moment
 * a sink that commits too early applies what the restart processes again;
 * <li>{@code kill-worker}: the JVM of the worker whose operator instance takes a record first once it
 * is due is SIGKILLed, with everything it hosts (on YARN a container, such as a Flink TaskManager's);
 * the cluster's engine must notice the loss, get a new one and restore what it held;
 * <li>{@code kill-db}: the runner SIGKILLs the database server the suite started, and starts it
 * again on the same data {@code lastsMillis} later: every connection breaks, and what the server had
 * not made durable is gone;
 * <li>{@code freeze-db}: the runner SIGSTOPs the server for {@code lastsMillis}, then continues it:
 * every call waits, or times out in a client that has a timeout.
 * </ul>
 * With a {@link Guarantee} the engine recovers; with {@code none} the run fails with the cause.
 */
public record Fault(Kind kind, long afterMillis, long lastsMillis) implements Serializable {

    public enum Kind {
        FAIL_TASK("fail-task", null),
        FAIL_CHECKPOINT("fail-checkpoint", null),
        KILL_WORKER("kill-worker", null),
        KILL_DB("kill-db", "down"),
        FREEZE_DB("freeze-db", "for");

        private final String cliName;
        /** The name of its duration, for a fault that lasts (the runner's faults on the database server). */
        private final String lasting;

        Kind(String cliName, String lasting) {
            this.cliName = cliName;
            this.lasting = lasting;
        }

        public String cliName() {
            return cliName;
        }

        /** Whether the runner injects it into the database server, rather than a processing operator into itself. */
        public boolean onDatabase() {
            return lasting != null;
        }
    }

    private static final String TIME = "([0-9]{1,6})(ms|s)";
    private static final Pattern FORM = Pattern.compile("(fail-task|fail-checkpoint|kill-worker)@" + TIME
            + "|(kill-db)@" + TIME + ",down=" + TIME + "|(freeze-db)@" + TIME + ",for=" + TIME);

    public Fault {
        if ((lastsMillis > 0) != kind.onDatabase()) {
            throw new IllegalArgumentException(kind.cliName() + (kind.onDatabase() ? " lasts" : " does not last"));
        }
    }

    /** A fault of a processing operator, which does not last. */
    public Fault(Kind kind, long afterMillis) {
        this(kind, afterMillis, 0);
    }

    /** Parses the form {@link #toString} writes, e.g. {@code fail-task@10s}; throws {@link IllegalArgumentException} with a line for the user. */
    public static Fault parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("--fault '" + text
                    + "' must be fail-task@TIME, fail-checkpoint@TIME, kill-worker@TIME, kill-db@TIME,down=TIME or freeze-db@TIME,for=TIME"
                    + " (TIME after the generators start, e.g. 10s or 2500ms)");
        }
        for (int group = 1; group <= m.groupCount(); group += group == 1 ? 3 : 5) {
            if (m.group(group) == null) {
                continue;
            }
            Kind kind = kind(m.group(group));
            long after = millis(m.group(group + 1), m.group(group + 2));
            if (!kind.onDatabase()) {
                return new Fault(kind, after);
            }
            long lasts = millis(m.group(group + 3), m.group(group + 4));
            if (lasts == 0) {
                throw new IllegalArgumentException(
                        "--fault '" + text + "': its " + kind.lasting + " must be more than 0");
            }
            return new Fault(kind, after, lasts);
        }
        throw new IllegalStateException("no fault in " + text);
    }

    private static Kind kind(String cliName) {
        for (Kind kind : Kind.values()) {
            if (kind.cliName().equals(cliName)) {
                return kind;
            }
        }
        throw new IllegalStateException(cliName);
    }

    private static long millis(String amount, String unit) {
        long value = Long.parseLong(amount);
        return unit.equals("s") ? value * 1000 : value;
    }

    /** When the fault is over: its time, plus how long it lasts. */
    public long endMillis() {
        return afterMillis + lastsMillis;
    }

    @Override
    public String toString() {
        return kind.cliName() + "@" + afterMillis + "ms"
                + (kind.onDatabase() ? "," + kind.lasting + "=" + lastsMillis + "ms" : "");
    }

    /** What a processing operator throws when the fault fires. */
    public static final class Injected extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Injected(Fault fault) {
            super("the injected fault " + fault + " (the run asked for it)");
        }
    }
}
