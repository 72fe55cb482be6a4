package org.streambench.model;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The one codec of capacity.json; a file of a newer layout is refused. */
public final class CapacityJson {

    private CapacityJson() {}

    public static String write(CapacityDocument document) throws IOException {
        return Mappers.WRITER.writeValueAsString(document);
    }

    /** Reads {@code file}; throws {@link IllegalArgumentException} when it is of a newer layout than this code reads. */
    public static CapacityDocument read(Path file) throws IOException {
        CapacityDocument document;
        try (InputStream in = Files.newInputStream(file)) {
            document = Mappers.READER.readValue(in, CapacityDocument.class);
        }
        if (document.schemaVersion() > CapacityDocument.SCHEMA_VERSION) {
            throw new IllegalArgumentException(file + " has schemaVersion " + document.schemaVersion()
                    + ", newer than this streambench reads (" + CapacityDocument.SCHEMA_VERSION + ")");
        }
        return document;
    }
}
