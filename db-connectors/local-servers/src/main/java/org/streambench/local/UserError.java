package org.streambench.local;

/** Bad input or an unusable environment: one line that says what and how to fix it; exit code 2. */
public final class UserError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UserError(String message) {
        super(message);
    }
}
