package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.Home;

/** Class data sharing for job JVMs: which archive a classpath gets, when one is kept, and a real JVM mapping it. */
class JobClassArchiveTest {

    /** A job stand-in: loads a class of its own and ends as the jobs do, by halting. */
    public static final class Job {
        public static void main(String[] args) {
            System.out.println(new StringBuilder("ran").reverse());
            Runtime.getRuntime().halt(0);
        }
    }

    @TempDir
    Path tmp;

    private Path jar() throws IOException {
        Path jar = tmp.resolve("job.jar");
        String entry = Job.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file);
                InputStream in = Job.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
        }
        return jar;
    }

    @Test
    void aRebuiltJarOrAFolderOnTheClasspathGetsNoStaleArchive() throws IOException {
        Path jar = jar();
        Path work = tmp.resolve("work");
        Path first = JobClassArchive.of("flink", jar.toString(), List.of(), work)
                .orElseThrow()
                .archive();
        assertEquals(
                first,
                JobClassArchive.of("flink", jar.toString(), List.of(), work)
                        .orElseThrow()
                        .archive());
        assertNotEquals(
                first,
                JobClassArchive.of("spark", jar.toString(), List.of(), work)
                        .orElseThrow()
                        .archive());
        assertNotEquals(
                first,
                JobClassArchive.of("flink", jar.toString(), List.of("--add-opens=x"), work)
                        .orElseThrow()
                        .archive());
        Files.setLastModifiedTime(
                jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 1000));
        assertNotEquals(
                first,
                JobClassArchive.of("flink", jar.toString(), List.of(), work)
                        .orElseThrow()
                        .archive());
        assertTrue(JobClassArchive.of("flink", jar + ":" + tmp, List.of(), work).isEmpty(), "a folder: no archive");
        System.setProperty(JobClassArchive.SWITCH, "off");
        try {
            assertTrue(
                    JobClassArchive.of("flink", jar.toString(), List.of(), work).isEmpty(), "switched off");
        } finally {
            System.clearProperty(JobClassArchive.SWITCH);
        }
    }

    @Test
    void theFirstJobWritesTheArchiveTheNextMapsItAndAKilledJobsIsNotKept() throws Exception {
        Path jar = jar();
        Path work = tmp.resolve("work");
        JobClassArchive killed =
                JobClassArchive.of("flink", jar.toString(), List.of(), work).orElseThrow();
        List<String> writing = killed.jvmFlags();
        assertTrue(writing.get(0).startsWith("-XX:ArchiveClassesAtExit="), writing.toString());
        assertTrue(JobClassArchive.writesAtExit(writing), "a job writing the archive must end by itself");
        Path pending = Path.of(writing.get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Files.writeString(pending, "a partial archive");
        killed.jobEnded(false);
        assertFalse(Files.exists(killed.archive()), "a killed job's archive is not kept");
        assertFalse(Files.exists(pending), "nor left behind");

        Path older = Files.writeString(work.resolve("class-archives").resolve("flink-0123456789abcdef.jsa"), "old");
        Path otherEngine = Files.writeString(older.resolveSibling("spark-0123456789abcdef.jsa"), "spark's");
        JobClassArchive first =
                JobClassArchive.of("flink", jar.toString(), List.of(), work).orElseThrow();
        assertEquals("nar", java(first.jvmFlags(), jar, List.of()).strip());
        first.jobEnded(true);
        assertTrue(Files.size(first.archive()) > 0, "the first job's archive is kept");
        assertFalse(Files.exists(older), "the engine's archive of an earlier build is gone");
        assertTrue(Files.exists(otherEngine), "another engine's stays");
        try (Stream<Path> files = Files.list(first.archive().getParent())) {
            assertEquals(2, files.count(), "no pending file left");
        }

        JobClassArchive next =
                JobClassArchive.of("flink", jar.toString(), List.of(), work).orElseThrow();
        List<String> mapping = next.jvmFlags();
        assertEquals("-XX:SharedArchiveFile=" + first.archive(), mapping.get(0));
        assertFalse(JobClassArchive.writesAtExit(mapping), "one mapping it may be ended once its statuses are in");
        String loaded = java(mapping, jar, List.of("-Xlog:class+load=info"));
        assertTrue(
                loaded.lines()
                        .anyMatch(line -> line.contains(Job.class.getName()) && line.contains("shared objects file")),
                "the job's own class comes from the archive: " + loaded);
    }

    private static String java(List<String> flags, Path jar, List<String> more) throws Exception {
        List<String> command = new ArrayList<>(List.of(Home.javaExecutable()));
        command.addAll(flags);
        command.addAll(more);
        command.addAll(List.of("-cp", jar.toString(), Job.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), output);
        return output;
    }
}
