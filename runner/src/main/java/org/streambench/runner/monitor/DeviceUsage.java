package org.streambench.runner.monitor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a block device read and wrote so far, by every process: Linux's {@code /sys/class/block/NAME/stat},
 * whose sector counts are in 512-byte units whatever the device's own sector size.
 */
public record DeviceUsage(String device, long readBytes, long writeBytes) {

    private static final Path BLOCK = Path.of("/sys/class/block");
    private static final long SECTOR = 512;

    /** The block device that holds {@code path} (e.g. vda, nvme0n1p2), if it is one whose counters Linux shows. */
    public static Optional<String> holding(Path path) {
        try {
            FileStore store = Files.getFileStore(path);
            if (!store.name().startsWith("/dev/")) {
                return Optional.empty(); // tmpfs, overlay: no device of its own
            }
            String device = Path.of(store.name()).getFileName().toString();
            return Files.isReadable(BLOCK.resolve(device).resolve("stat")) ? Optional.of(device) : Optional.empty();
        } catch (IOException | RuntimeException notADevice) {
            return Optional.empty();
        }
    }

    /** The device's counters now; empty if they cannot be read. */
    public static Optional<DeviceUsage> of(String device) {
        try {
            return Optional.of(
                    parse(device, Files.readString(BLOCK.resolve(device).resolve("stat"), StandardCharsets.US_ASCII)));
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    /** Fields 3 and 7 of the stat line: sectors read and sectors written. */
    static DeviceUsage parse(String device, String stat) {
        String[] fields = stat.trim().split("\\s+");
        return new DeviceUsage(device, Long.parseLong(fields[2]) * SECTOR, Long.parseLong(fields[6]) * SECTOR);
    }
}
