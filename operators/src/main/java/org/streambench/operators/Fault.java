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
 * a sink that commits too early applies what the restart processes again.
 * </ul>
 * With a {@link Guarantee} the engine recovers; with {@code none} the run fails with the cause.
 */
public record Fault(Kind kind, long afterMillis) implements Serializable {

    public enum Kind {
        FAIL_TASK("fail-task"),
        FAIL_CHECKPOINT("fail-checkpoint");

        private final String cliName;

        Kind(String cliName) {
            this.cliName = cliName;
        }

        public String cliName() {
            return cliName;
        }
    }

    private static final Pattern FORM = Pattern.compile("(fail-task|fail-checkpoint)@([0-9]{1,6})(ms|s)");

    /** Parses the form {@link #toString} writes, e.g. {@code fail-task@10s}; throws {@link IllegalArgumentException} with a line for the user. */
    public static Fault parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "--fault '" + text
                            + "' must be fail-task@TIME or fail-checkpoint@TIME (TIME after the generators start, e.g. 10s or 2500ms)");
        }
        long amount = Long.parseLong(m.group(2));
        Kind kind = m.group(1).equals(Kind.FAIL_TASK.cliName()) ? Kind.FAIL_TASK : Kind.FAIL_CHECKPOINT;
        return new Fault(kind, m.group(3).equals("s") ? amount * 1000 : amount);
    }

    @Override
    public String toString() {
        return kind.cliName() + "@" + afterMillis + "ms";
    }

    /** What a processing operator throws when the fault fires. */
    public static final class Injected extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Injected(Fault fault) {
            super("the injected fault " + fault + " (the run asked for it)");
        }
    }
}
