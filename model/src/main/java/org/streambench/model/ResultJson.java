package org.streambench.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one codec of result.json. Reading is lenient within a layout: a part a file lacks (written
 * before it existed, or by an interrupted run) is null, and a part this code does not know is
 * skipped; a file of a newer layout ({@code schemaVersion}) is refused.
 */
public final class ResultJson {

    private ResultJson() {}

    /** A finished run's result.json. */
    public static String write(RunDocument document) throws IOException {
        return Mappers.WRITER.writeValueAsString(document);
    }

    /** The result.json of a run the runner could not finish. */
    public static String write(RunDocument.Interrupted document) throws IOException {
        return Mappers.WRITER.writeValueAsString(document);
    }

    /**
     * Reads {@code file}; throws {@link IllegalArgumentException} when it is not a streambench
     * result or is of a newer layout than this code reads.
     */
    public static RunDocument read(Path file) throws IOException {
        JsonNode root;
        try (InputStream in = Files.newInputStream(file)) {
            root = Mappers.READER.readTree(in);
        }
        int schemaVersion = root.path("schemaVersion").asInt(1);
        if (schemaVersion > RunDocument.SCHEMA_VERSION) {
            throw new IllegalArgumentException(file + " has schemaVersion " + schemaVersion
                    + ", newer than this streambench reads (" + RunDocument.SCHEMA_VERSION
                    + "); report it with a newer checkout");
        }
        JsonNode spec = root.path("spec");
        if (!spec.has("engine") || !spec.has("database") || !root.has("status")) {
            throw new IllegalArgumentException(file + " is not a streambench result (no spec or status)");
        }
        try {
            return Mappers.READER.treeToValue(root, RunDocument.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    file + " is not a readable streambench result: " + e.getOriginalMessage());
        }
    }
}
