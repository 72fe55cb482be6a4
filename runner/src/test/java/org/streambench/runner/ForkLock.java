package org.streambench.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Lets the test JVMs that Surefire forks for this module share the machine: every test class holds
 * a shared lock on one file while it runs, and a {@link RunsAlone} test (or class) holds it
 * exclusively, so it starts only once the other JVM's current test class or test has ended, and the
 * other JVM starts nothing until it has ended. Registered for every test class
 * (META-INF/services, with extension autodetection on in junit-platform.properties).
 */
public final class ForkLock implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    /**
     * One channel per lock file for the JVM's life. Surefire runs each test class of a fork through a
     * launcher of its own, with an instance of this extension of its own; a channel an earlier
     * instance left for the garbage collector would close its descriptor later, and closing any
     * descriptor of a file drops every lock the process holds on it (POSIX): the later class's too.
     */
    private static final Map<Path, FileChannel> CHANNELS = new ConcurrentHashMap<>();

    private final Path file;
    private FileLock held;
    private FileLock resourceHeld;
    private String resourceName;
    private int classDepth;

    public ForkLock() {
        this(Path.of("target", "test-forks.lock").toAbsolutePath());
    }

    ForkLock(Path file) {
        this.file = file;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        enterClass(runsAlone(context.getRequiredTestClass()), resource(context.getRequiredTestClass()));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        exitClass();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (aloneInASharedClass(context)) {
            enterAloneMethod();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (aloneInASharedClass(context)) {
            exitAloneMethod();
        }
    }

    synchronized void enterClass(boolean alone) {
        enterClass(alone, null);
    }

    /**
     * A class (or a nested one in it) begins: the lock is taken unless its enclosing class holds it;
     * first the lock of the {@link OneForkAtATime} resource it uses, if any, so that a class waiting
     * for the other JVM's use of it holds nothing that the other JVM's tests wait for.
     */
    synchronized void enterClass(boolean alone, String resource) {
        if (classDepth++ == 0) {
            if (resource != null) {
                resourceHeld = lock(resourceFile(resource), false);
                resourceName = resource;
            }
            take(!alone);
        }
    }

    synchronized void exitClass() {
        if (--classDepth == 0) {
            release();
            if (resourceHeld != null) {
                unlock(resourceHeld, resourceFile(resourceName));
                resourceHeld = null;
            }
        }
    }

    /** The lock file of {@code resource}, beside the fork lock's. */
    Path resourceFile(String resource) {
        return file.resolveSibling("test-forks-" + resource + ".lock");
    }

    /** A {@link RunsAlone} method of a class that does not run alone: the class's shared lock becomes exclusive. */
    synchronized void enterAloneMethod() {
        release();
        take(false);
    }

    synchronized void exitAloneMethod() {
        release();
        take(true);
    }

    private static boolean aloneInASharedClass(ExtensionContext context) {
        return AnnotationSupport.isAnnotated(context.getRequiredTestMethod(), RunsAlone.class)
                && !runsAlone(context.getRequiredTestClass());
    }

    private static boolean runsAlone(Class<?> testClass) {
        for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
            if (AnnotationSupport.isAnnotated(c, RunsAlone.class)) {
                return true;
            }
        }
        return false;
    }

    private static String resource(Class<?> testClass) {
        for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
            OneForkAtATime one = c.getAnnotation(OneForkAtATime.class);
            if (one != null) {
                return one.value();
            }
        }
        return null;
    }

    private void take(boolean shared) {
        held = lock(file, shared);
    }

    private static FileLock lock(Path file, boolean shared) {
        try {
            return CHANNELS.computeIfAbsent(file, ForkLock::open).lock(0, 1, shared);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + file, e);
        }
    }

    private static FileChannel open(Path file) {
        try {
            Files.createDirectories(file.getParent());
            return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file, e);
        }
    }

    private void release() {
        if (held != null) {
            unlock(held, file);
            held = null;
        }
    }

    private static void unlock(FileLock lock, Path file) {
        try {
            lock.release();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release " + file, e);
        }
    }
}
