package org.streambench.model;

/**
 * The access mode's name in every file and command: the typed mode is the operators'
 * {@code AccessMode}; here is the one spelling of the default, and of what a file written before
 * the access axis existed means.
 */
public final class AccessModeName {

    /** One call per record, the study's mode and the default. */
    public static final String SYNC = "sync";

    private AccessModeName() {}

    /** {@code access} as a file names it, {@link #SYNC} where a layout from before the access axis does not say. */
    public static String orSync(String access) {
        return access == null ? SYNC : access;
    }
}
