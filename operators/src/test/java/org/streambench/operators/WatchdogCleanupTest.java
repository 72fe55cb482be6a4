package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the runner is gone, the watchdog deletes the job's temporary folder while the engine's
 * threads are still running: files appearing and disappearing during the deletion must not leave
 * the folder behind.
 */
class WatchdogCleanupTest {

    @Test
    void theFolderIsDeletedWhileAnotherThreadKeepsCreatingAndDeletingFilesInIt(@TempDir Path tmp) throws Exception {
        Path jobTmp = tmp.resolve("job-tmp");
        Path engineFolder = Files.createDirectories(jobTmp.resolve("engine"));
        for (int i = 0; i < 2000; i++) {
            Files.writeString(engineFolder.resolve("existing-" + i), "x");
        }
        AtomicBoolean churning = new AtomicBoolean(true);
        AtomicLong created = new AtomicLong();
        Thread engine = new Thread(() -> {
            Path previous = null;
            while (churning.get()) {
                try {
                    Path next = engineFolder.resolve("churn-" + created.incrementAndGet());
                    Files.writeString(next, "x");
                    if (previous != null) {
                        Files.deleteIfExists(previous);
                    }
                    previous = next;
                } catch (IOException e) {
                    return; // the folder is gone: an engine's write fails the same way
                }
            }
        });
        engine.start();
        try {
            while (created.get() < 100) {
                Thread.onSpinWait();
            }
            RunnerWatchdog.deleteQuietly(jobTmp);
            assertFalse(Files.exists(jobTmp), "the job's temporary folder survived");
            try (Stream<Path> left = Files.list(tmp)) {
                assertEquals(List.of(), left.toList(), "nothing is left beside it");
            }
        } finally {
            churning.set(false);
            engine.join();
        }
        assertTrue(created.get() > 100, "the other thread did not churn: " + created.get());
    }
}
