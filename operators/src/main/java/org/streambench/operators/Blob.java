package org.streambench.operators;

/** The BLOB stored with every record: prepared once at the configured size, never per write. */
public final class Blob {

    private Blob() {
    }

    public static byte[] of(int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("BLOB size must be a positive number of bytes: " + size);
        }
        byte[] blob = new byte[size];
        for (int i = 0; i < size; i++) {
            blob[i] = (byte) (i * 31 + 7); // not all zero, so no database can shortcut it
        }
        return blob;
    }
}
