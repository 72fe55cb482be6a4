package org.streambench.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One owner at a time of a thing on this machine (a local server a run resets and stops, a result
 * folder a run writes): an exclusive lock on a file beside it, held for as long as the owner uses it.
 * The kernel releases the lock when its process ends however it ends (SIGKILL included), so a lease
 * is never left behind; the file keeps the last owner's pid, for the message a second owner gets.
 */
public final class Lease implements AutoCloseable {

    /** The files whose leases this process holds. */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private Lease(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
        HELD.add(file);
    }

    /**
     * Takes the lease of {@code file}, or throws a {@link UserError}: "{@code what} is in use by
     * another bench (pid N); {@code advice}".
     */
    public static Lease take(Path file, String what, String advice) {
        FileChannel channel = null;
        try {
            Files.createDirectories(file.getParent());
            channel = FileChannel.open(
                    file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException heldByThisJvm) {
                lock = null;
            }
            if (lock == null) {
                String holder = Files.readString(file, StandardCharsets.UTF_8).strip();
                channel.close();
                throw new UserError(what + " is in use by another bench"
                        + (holder.isEmpty() ? "" : " (pid " + holder + ")") + "; " + advice);
            }
            channel.truncate(0);
            channel.write(
                    ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)));
            channel.force(false);
            return new Lease(file.toAbsolutePath().normalize(), channel, lock);
        } catch (IOException e) {
            try {
                if (channel != null) {
                    channel.close();
                }
            } catch (IOException ignored) {
                // the first failure is the one to report
            }
            throw new UncheckedIOException("cannot take the lease " + file, e);
        }
    }

    /** Whether another process holds the lease of {@code file} now (not this one). */
    public static boolean heldElsewhere(Path file) {
        if (!Files.exists(file) || HELD.contains(file.toAbsolutePath().normalize())) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock != null) {
                lock.release();
                return false;
            }
            return true;
        } catch (OverlappingFileLockException | IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        HELD.remove(file);
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
