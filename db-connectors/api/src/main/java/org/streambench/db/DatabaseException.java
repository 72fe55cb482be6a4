package org.streambench.db;

/** A database call failed; the message names the database and, where possible, the fix. */
public class DatabaseException extends RuntimeException {

    public DatabaseException(String message) {
        super(message);
    }

    public DatabaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
