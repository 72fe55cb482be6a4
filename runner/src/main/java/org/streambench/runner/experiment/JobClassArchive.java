package org.streambench.runner.experiment;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Class data sharing for a local job's JVM (the JDK's AppCDS): the classes an engine's job loads
 * from its hundred-odd jars, parsed and verified once, kept in an archive under the work folder and
 * mapped by every later job JVM of that engine, which then starts sooner. The first job of an engine
 * writes the archive as its JVM ends ({@code -XX:ArchiveClassesAtExit}); the runner keeps it only
 * when that JVM ended normally. The archive's name holds a digest of the JDK, the classpath and each
 * jar's size and time, so a rebuilt jar or another JDK gets a new archive and never a stale one. A
 * job JVM that cannot map an archive runs without it. {@code STREAMBENCH_CLASS_ARCHIVE=off} (or
 * {@code -Dstreambench.classArchive=off}) turns it off.
 */
final class JobClassArchive {

    static final String SWITCH = "streambench.classArchive";
    static final String SWITCH_ENVIRONMENT = "STREAMBENCH_CLASS_ARCHIVE";
    private static final String FOLDER = "class-archives";

    private final String engine;
    private final Path archive;
    private final Path pending;

    private JobClassArchive(String engine, Path archive, Path pending) {
        this.engine = engine;
        this.archive = archive;
        this.pending = pending;
    }

    /**
     * The archive of {@code engine}'s job JVM on {@code classpath} (jars only: the JDK archives no
     * class from a folder); empty when switched off or when the classpath holds a folder.
     */
    static Optional<JobClassArchive> of(String engine, String classpath, List<String> jvmFlags, Path work) {
        if ("off".equals(System.getProperty(SWITCH, System.getenv(SWITCH_ENVIRONMENT)))) {
            return Optional.empty();
        }
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            update(digest, System.getProperty("java.home"));
            update(digest, System.getProperty("java.vm.version"));
            update(digest, String.join(" ", jvmFlags));
            for (String entry : classpath.split(File.pathSeparator)) {
                Path jar = Path.of(entry);
                if (!Files.isRegularFile(jar)) {
                    return Optional.empty();
                }
                BasicFileAttributes attributes = Files.readAttributes(jar, BasicFileAttributes.class);
                update(
                        digest,
                        entry + " " + attributes.size() + " "
                                + attributes.lastModifiedTime().toMillis());
            }
            String name = engine + "-" + HexFormat.of().formatHex(digest.digest(), 0, 8);
            Path folder = work.resolve(FOLDER);
            return Optional.of(new JobClassArchive(
                    engine,
                    folder.resolve(name + ".jsa"),
                    folder.resolve(name + "-" + UUID.randomUUID() + ".pending")));
        } catch (IOException | NoSuchAlgorithmException e) {
            return Optional.empty(); // no archive: the job starts as it would without one
        }
    }

    private static void update(MessageDigest digest, String text) {
        digest.update(text.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
    }

    /**
     * The job JVM's flags: map the archive, or write one as the JVM ends; none when its folder cannot
     * be made or its disk has less than {@link #MIN_FREE_BYTES} free (a JVM that cannot write its
     * archive ends with an error, and a nearly full disk is the database's). CDS's own messages stay
     * out of the job's log: classes it leaves out of an archive (old bytecode) and an archive it
     * cannot map change how fast a job starts, never what it does.
     */
    List<String> jvmFlags() {
        if (Files.isRegularFile(archive)) {
            return List.of("-XX:SharedArchiveFile=" + archive, QUIET);
        }
        try {
            Files.createDirectories(archive.getParent());
            if (Files.getFileStore(archive.getParent()).getUsableSpace() < MIN_FREE_BYTES) {
                return List.of();
            }
        } catch (IOException e) {
            return List.of();
        }
        return List.of(WRITE_AT_EXIT + pending, QUIET);
    }

    /** Whether a JVM with {@code jvmFlags} writes an archive as it ends: it must then end by itself, not be killed. */
    static boolean writesAtExit(List<String> jvmFlags) {
        return jvmFlags.stream().anyMatch(flag -> flag.startsWith(WRITE_AT_EXIT));
    }

    /** An archive takes 20-70 MB; writing one needs this much free beside it. */
    private static final long MIN_FREE_BYTES = 1L << 30;

    private static final String QUIET = "-Xlog:cds*=off";

    private static final String WRITE_AT_EXIT = "-XX:ArchiveClassesAtExit=";

    /**
     * Once the job's JVM has ended: the archive it wrote is kept when it ended normally (a killed
     * JVM leaves none, or a partial one), replacing any another job wrote meanwhile.
     */
    void jobEnded(boolean normally) {
        try {
            if (normally && Files.size(pending) > 0) {
                Files.move(pending, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                removeOlderArchives();
            }
        } catch (IOException noArchive) {
            // none written: the next job writes one
        } finally {
            try {
                Files.deleteIfExists(pending);
            } catch (IOException e) {
                // a stray pending file is ignored by every later job
            }
        }
    }

    /**
     * An engine keeps one archive: those of its earlier builds or JDKs (60-70 MB each) go once a new
     * one is written. A job that maps one still reads it (the file lives on until it is unmapped).
     */
    private void removeOlderArchives() throws IOException {
        try (Stream<Path> files = Files.list(archive.getParent())) {
            for (Path other : files.filter(
                            f -> f.getFileName().toString().matches(Pattern.quote(engine) + "-[0-9a-f]{16}\\.jsa"))
                    .filter(f -> !f.equals(archive))
                    .toList()) {
                Files.deleteIfExists(other);
            }
        }
    }

    Path archive() {
        return archive;
    }
}
