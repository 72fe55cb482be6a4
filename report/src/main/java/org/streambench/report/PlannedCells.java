package org.streambench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.streambench.model.AccessModeName;
import org.streambench.model.JournalJson;
import org.streambench.model.MatrixJournal;

/**
 * What a matrix planned, from its journal {@code matrix.json} (a matrix folder has one; a folder of
 * single runs does not): how many experiments, and those without a result yet, so a report of an
 * unfinished matrix says so instead of looking complete.
 */
public record PlannedCells(int planned, List<Missing> missing) {

    /** A planned experiment without a result.json: {@code state} pending, running (interrupted) or failed. */
    public record Missing(
            String id,
            String engine,
            String database,
            String pattern,
            int blobBytes,
            String access,
            String state,
            String reason) {}

    /** The journal's plan, or null when {@code dir} is not a matrix folder; throws if the journal cannot be read. */
    static PlannedCells read(Path dir, Set<Path> folderWithResults) throws IOException {
        Path journal = dir.resolve(MatrixJournal.FILE);
        if (!Files.isRegularFile(journal)) {
            return null;
        }
        MatrixJournal document = JournalJson.read(journal);
        List<Missing> missing = new ArrayList<>();
        for (MatrixJournal.CellEntry cell : document.cells()) {
            Path cellFolder = dir.resolve(cell.id()).normalize();
            // a cell of a fill (bench matrix --steps) holds its results in step folders
            if (folderWithResults.stream().anyMatch(folder -> folder.startsWith(cellFolder))) {
                continue;
            }
            missing.add(new Missing(
                    cell.id(),
                    cell.engine(),
                    cell.database(),
                    cell.pattern(),
                    cell.blobBytes(),
                    AccessModeName.orSync(cell.access()),
                    cell.state(),
                    cell.reason()));
        }
        return new PlannedCells(document.cells().size(), List.copyOf(missing));
    }
}
