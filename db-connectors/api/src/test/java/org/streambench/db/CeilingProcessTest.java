package org.streambench.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CeilingProcessTest {

    /** latte writes its own log into its working directory: it must land beside the run's output. */
    @Test
    void aToolRunsInItsLogsFolderSoWhatItWritesThereStaysOutOfTheUsersFolder(@TempDir Path tmp) throws Exception {
        Path folder = Files.createDirectories(tmp.resolve("ceiling"));
        String name = "written-by-the-tool-" + ProcessHandle.current().pid() + ".txt";
        String output = CeilingProcess.run(
                List.of("sh", "-c", "echo $GREETING > " + name + " && echo done"),
                Map.of("GREETING", "hello"),
                folder.resolve("tool.out"),
                30);
        assertEquals("done\n", output);
        assertEquals("hello\n", Files.readString(folder.resolve(name)));
        assertFalse(
                Files.exists(Path.of(name).toAbsolutePath()),
                "written into " + Path.of("").toAbsolutePath());
        assertTrue(Files.exists(folder.resolve("tool.out")));
    }
}
