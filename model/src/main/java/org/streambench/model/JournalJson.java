package org.streambench.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one codec of matrix.json. Reading is lenient within a layout (a part a journal lacks is
 * null, an unknown part is skipped); a journal of a newer layout is refused.
 */
public final class JournalJson {

    private JournalJson() {}

    public static String write(MatrixJournal journal) throws IOException {
        return Mappers.WRITER.writeValueAsString(journal);
    }

    /**
     * Reads {@code file}; throws {@link IllegalArgumentException} when it is not a readable journal
     * or is of a newer layout than this code reads.
     */
    public static MatrixJournal read(Path file) throws IOException {
        JsonNode root;
        try (InputStream in = Files.newInputStream(file)) {
            root = Mappers.READER.readTree(in);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " is not a readable matrix journal: " + e.getMessage());
        }
        int version = root.path("version").asInt(MatrixJournal.VERSION);
        if (version > MatrixJournal.VERSION) {
            throw new IllegalArgumentException(file + " was written by a newer streambench (journal version " + version
                    + ", this one reads " + MatrixJournal.VERSION + "); use that version");
        }
        if (!root.path("cells").isArray()) {
            throw new IllegalArgumentException(file + " is not a matrix journal (it has no cells)");
        }
        try {
            return Mappers.READER.treeToValue(root, MatrixJournal.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not a readable matrix journal: " + e.getOriginalMessage());
        }
    }
}
