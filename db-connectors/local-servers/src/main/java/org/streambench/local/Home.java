package org.streambench.local;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the checkout is (modules, classpaths) and where run-time state goes (servers, data). */
public final class Home {

    /**
     * A test JVM's lease on its work folder ({@code target/test-work*}), held for its whole life: a
     * folder whose lease nobody holds belongs to a test run that has ended, and what still runs from
     * it was left by a killed one.
     */
    public static final String TEST_WORK_LEASE = "tests.lease";

    /** Beside that lease: the other work folders the test JVM used (one path a line), cleaned up with it. */
    public static final String TEST_WORK_OTHERS = "other-work-folders";

    private Home() {}

    /** The checkout: {@code -Dstreambench.home}, else the nearest folder up from here with a {@code bench} launcher. */
    public static Path root() {
        String configured = System.getProperty("streambench.home");
        if (configured != null) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("bench")) && Files.isDirectory(dir.resolve("runner"))) {
                return dir;
            }
        }
        throw new UserError("cannot find the streambench checkout; run ./bench from it or set -Dstreambench.home");
    }

    /** Run-time state: {@code -Dstreambench.work}, else {@code $STREAMBENCH_WORK}, else {@code <checkout>/work}. */
    public static Path work() {
        String configured = System.getProperty("streambench.work", System.getenv("STREAMBENCH_WORK"));
        return configured != null && !configured.isBlank()
                ? Path.of(configured).toAbsolutePath()
                : root().resolve("work");
    }

    /** The runtime classpath of a module built by Maven: its classes (if it has any) plus target/classpath.txt. */
    public static String classpathOf(String module) {
        Path target = root().resolve(module).resolve("target");
        Path listing = target.resolve("classpath.txt");
        if (!Files.isRegularFile(listing)) {
            throw new UserError("module " + module + " is not built; run ./bench build (or mvn -DskipTests package)");
        }
        try {
            String dependencies = Files.readString(listing).trim();
            Path classes = target.resolve("classes");
            return Files.isDirectory(classes) ? classes + File.pathSeparator + dependencies : dependencies;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The commit the checkout is at, read from {@code .git} (no git needed), with "-dirty" left out:
     * null when the checkout is not a git clone.
     */
    public static String commit() {
        Path git = root().resolve(".git");
        try {
            String head = Files.readString(git.resolve("HEAD")).trim();
            if (!head.startsWith("ref: ")) {
                return head;
            }
            String ref = head.substring("ref: ".length());
            Path loose = git.resolve(ref);
            if (Files.isRegularFile(loose)) {
                return Files.readString(loose).trim();
            }
            Path packed = git.resolve("packed-refs");
            if (Files.isRegularFile(packed)) {
                for (String line : Files.readAllLines(packed)) {
                    if (line.endsWith(" " + ref)) {
                        return line.substring(0, line.indexOf(' '));
                    }
                }
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
