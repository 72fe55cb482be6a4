package org.streambench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a matrix planned, from its journal {@code matrix.json} (a matrix folder has one; a folder of
 * single runs does not): how many experiments, and those without a result yet, so a report of an
 * unfinished matrix says so instead of looking complete.
 */
public record PlannedCells(int planned, List<Missing> missing) {

    public static final String JOURNAL = "matrix.json";
    /** The journal layout this checkout writes and reads; the matrix runner writes it under "version". */
    public static final int JOURNAL_VERSION = 1;

    /** A planned experiment without a result.json: {@code state} pending, running (interrupted) or failed. */
    public record Missing(
            String id, String engine, String database, String pattern, int blobBytes, String state, String reason) {}

    /** The journal's plan, or null when {@code dir} is not a matrix folder; throws if the journal cannot be read. */
    static PlannedCells read(Path dir, Set<Path> folderWithResults) throws IOException {
        Path journal = dir.resolve(JOURNAL);
        if (!Files.isRegularFile(journal)) {
            return null;
        }
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(journal.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(journal + " is not a readable matrix journal: " + e.getMessage());
        }
        int version = root.path("version").asInt(JOURNAL_VERSION);
        if (version > JOURNAL_VERSION) {
            throw new IllegalArgumentException(journal + " was written by a newer streambench (journal version "
                    + version + ", this one reads " + JOURNAL_VERSION + "); report it with that version");
        }
        if (!root.path("cells").isArray()) {
            throw new IllegalArgumentException(journal + " is not a matrix journal (it has no cells)");
        }
        List<Missing> missing = new ArrayList<>();
        for (JsonNode cell : root.get("cells")) {
            String id = cell.path("id").asText();
            if (folderWithResults.contains(dir.resolve(id).normalize())) {
                continue;
            }
            missing.add(new Missing(
                    id,
                    cell.path("engine").asText(),
                    cell.path("database").asText(),
                    cell.path("pattern").asText(),
                    cell.path("blobBytes").asInt(),
                    cell.path("state").asText(),
                    cell.path("reason").isNull() ? null : cell.path("reason").asText()));
        }
        return new PlannedCells(root.get("cells").size(), List.copyOf(missing));
    }
}
