package org.streambench.model;

import java.io.IOException;
import java.nio.file.Path;

/** The one codec of ceiling.json; a file of a newer layout is refused. */
public final class CeilingJson {

    private CeilingJson() {}

    public static String write(CeilingDocument document) throws IOException {
        return Versioned.write(document);
    }

    public static CeilingDocument read(Path file) throws IOException {
        return Versioned.read(file, CeilingDocument.class, CeilingDocument.SCHEMA_VERSION);
    }
}
