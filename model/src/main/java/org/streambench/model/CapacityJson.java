package org.streambench.model;

import java.io.IOException;
import java.nio.file.Path;

/** The one codec of capacity.json; a file of a newer layout is refused. */
public final class CapacityJson {

    private CapacityJson() {}

    public static String write(CapacityDocument document) throws IOException {
        return Versioned.write(document);
    }

    public static CapacityDocument read(Path file) throws IOException {
        return Versioned.read(file, CapacityDocument.class, CapacityDocument.SCHEMA_VERSION);
    }
}
