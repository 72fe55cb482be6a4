package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.ref.WeakReference;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lock that lets two forked test JVMs share the machine, against a second JVM that holds it. */
class ForkLockTest {

    /**
     * The other test JVM: takes the lock (shared or not), says "held", and lets go when its input
     * ends; or, with "try", says whether it could take it exclusively now ("held" or "refused").
     */
    public static final class OtherJvm {
        public static void main(String[] args) throws Exception {
            try (FileChannel channel = FileChannel.open(
                    Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                if (args[1].equals("try")) {
                    System.out.println(channel.tryLock(0, 1, false) != null ? "held" : "refused");
                    return;
                }
                channel.lock(0, 1, args[1].equals("shared"));
                System.out.println("held");
                System.out.flush();
                while (System.in.read() != -1) {
                    // until the test closes our input
                }
            }
        }
    }

    private static Process otherJvmHolding(Path file, String mode) throws Exception {
        Process other = otherJvm(file, mode);
        BufferedReader out = new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("held", out.readLine());
        return other;
    }

    private static Process otherJvm(Path file, String mode) throws Exception {
        return new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        OtherJvm.class.getName(),
                        file.toString(),
                        mode)
                .redirectErrorStream(true)
                .start();
    }

    /** {@code step} is still waiting half a second on, and ends once the other JVM has let go of the lock. */
    private static void assertWaitsUntilTheOtherJvmLetsGo(CompletableFuture<Void> step, Process other, String message)
            throws Exception {
        Thread.sleep(500);
        assertFalse(step.isDone(), message);
        other.getOutputStream().close();
        step.get(10, TimeUnit.SECONDS);
        assertTrue(other.waitFor(10, TimeUnit.SECONDS));
    }

    @Test
    void aTestThatRunsAloneWaitsForTheOtherJvmsTestsAndOtherTestsRunBesideThem(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("lock");
        ForkLock lock = new ForkLock(file);
        Process other = otherJvmHolding(file, "shared");
        try {
            CompletableFuture<Void> sharedClass = CompletableFuture.runAsync(() -> lock.enterClass(false));
            sharedClass.get(10, TimeUnit.SECONDS); // beside the other JVM's test

            assertWaitsUntilTheOtherJvmLetsGo(
                    CompletableFuture.runAsync(lock::enterAloneMethod),
                    other,
                    "a test that runs alone started while the other JVM ran one");

            lock.exitAloneMethod();
            lock.exitClass();
        } finally {
            other.destroyForcibly();
        }
    }

    @Test
    void theOtherJvmStartsNothingWhileATestRunsAlone(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("lock");
        ForkLock lock = new ForkLock(file);
        Process other = otherJvmHolding(file, "exclusive");
        try {
            assertWaitsUntilTheOtherJvmLetsGo(
                    CompletableFuture.runAsync(() -> lock.enterClass(false)),
                    other,
                    "a test class started while the other JVM ran a test alone");
            lock.exitClass();
        } finally {
            other.destroyForcibly();
        }
    }

    @Test
    void aClassThatUsesWhatTheMachineHasOneOfWaitsForTheOtherJvmsUseOfItHoldingNothingMeanwhile(@TempDir Path tmp)
            throws Exception {
        Path file = tmp.resolve("lock");
        ForkLock lock = new ForkLock(file);
        Process other = otherJvmHolding(lock.resourceFile("docker"), "exclusive");
        try {
            CompletableFuture<Void> dockerClass = CompletableFuture.runAsync(() -> lock.enterClass(false, "docker"));
            Thread.sleep(500);
            Process alone = otherJvm(file, "try");
            String said = new String(alone.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertEquals("held", said, "a class waiting for the Docker engine kept the other JVM's tests waiting");

            assertWaitsUntilTheOtherJvmLetsGo(
                    dockerClass, other, "a class that uses the Docker engine started while the other JVM's one ran");
            Process next = otherJvm(lock.resourceFile("docker"), "try");
            String nextSaid = new String(next.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertEquals("refused", nextSaid, "the other JVM took the Docker engine while a class here used it");
            lock.exitClass();
            Process after = otherJvm(lock.resourceFile("docker"), "try");
            assertEquals(
                    "held",
                    new String(after.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip(),
                    "the class ended and kept the Docker engine's lock");
        } finally {
            other.destroyForcibly();
        }
    }

    @Test
    void aClassesLockHoldsAfterAnEarlierClassesExtensionIsCollected(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("lock");
        ForkLock earlier = new ForkLock(file); // Surefire's launcher per class: an instance per class
        earlier.enterClass(false);
        earlier.exitClass();
        WeakReference<ForkLock> collected = new WeakReference<>(earlier);
        earlier = null;
        ForkLock later = new ForkLock(file);
        later.enterClass(true);
        try {
            for (int i = 0; i < 50 && collected.get() != null; i++) {
                System.gc();
                Thread.sleep(20);
            }
            assertNull(collected.get(), "the earlier instance was not collected: this proves nothing");
            Thread.sleep(500); // the cleaner closes what the collected instance left
            Process other = otherJvm(file, "try");
            String said = new String(other.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertEquals("refused", said, "the other JVM took the lock while a class here held it");
        } finally {
            later.exitClass();
        }
    }
}
