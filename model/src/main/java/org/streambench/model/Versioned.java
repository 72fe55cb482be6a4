package org.streambench.model;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** A result document with a layout number: read by this code only up to the layout it knows. */
public interface Versioned {

    int schemaVersion();

    static String write(Versioned document) throws IOException {
        return Mappers.WRITER.writeValueAsString(document);
    }

    /** Reads {@code file}; throws {@link IllegalArgumentException} when it is of a layout newer than {@code newest}. */
    static <T extends Versioned> T read(Path file, Class<T> type, int newest) throws IOException {
        T document;
        try (InputStream in = Files.newInputStream(file)) {
            document = Mappers.READER.readValue(in, type);
        }
        if (document.schemaVersion() > newest) {
            throw new IllegalArgumentException(file + " has schemaVersion " + document.schemaVersion()
                    + ", newer than this streambench reads (" + newest + ")");
        }
        return document;
    }
}
