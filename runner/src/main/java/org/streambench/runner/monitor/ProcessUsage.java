package org.streambench.runner.monitor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What some processes used so far, read from Linux's /proc (a well-kept library such as OSHI
 * reads the same files, but leaves out the times a parent collected from its ended children, which
 * postgres's per-connection backends need): CPU ticks (user and system, with those of ended
 * children), bytes read from and written to storage, resident memory now.
 *
 * @param readBytes  null when a process's {@code io} file is not readable (another user's, without root)
 */
public record ProcessUsage(int processes, long cpuTicks, Long readBytes, Long writeBytes, long rssBytes) {

    /** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture the JDK runs on. */
    public static final double TICKS_PER_SECOND = 100;

    private static final Path PROC = Path.of("/proc");

    public static boolean available() {
        return Files.isReadable(PROC.resolve("self/stat"));
    }

    /** A process and every process it started that still runs. */
    public static List<ProcessHandle> tree(ProcessHandle root) {
        return Stream.concat(Stream.of(root), root.descendants()).toList();
    }

    /**
     * One process read once: its parent, when it started (clock ticks after boot), CPU ticks with those of
     * its ended children, storage bytes (null when its {@code io} file is not readable), resident memory.
     */
    public record Reading(
            long pid, long parentPid, long startTicks, long cpuTicks, Long readBytes, Long writeBytes, long rssBytes) {

        /** The same process as {@code other}: the same pid, started at the same time (a pid may be used again). */
        boolean sameProcessAs(Reading other) {
            return other != null && other.pid == pid && other.startTicks == startTicks;
        }
    }

    /** What {@code readings} add up to. */
    public static ProcessUsage sum(Collection<Reading> readings) {
        long ticks = 0;
        long rss = 0;
        long read = 0;
        long written = 0;
        boolean ioReadable = true;
        for (Reading reading : readings) {
            ticks += reading.cpuTicks();
            rss += reading.rssBytes();
            if (reading.readBytes() == null || reading.writeBytes() == null) {
                ioReadable = false;
            } else {
                read += reading.readBytes();
                written += reading.writeBytes();
            }
        }
        return new ProcessUsage(readings.size(), ticks, ioReadable ? read : null, ioReadable ? written : null, rss);
    }

    /** Each of the processes read now, by pid; one that ended meanwhile is left out. */
    public static Map<Long, Reading> readings(Collection<ProcessHandle> processes) {
        Map<Long, Reading> readings = new LinkedHashMap<>();
        for (ProcessHandle process : processes) {
            if (!readings.containsKey(process.pid())) {
                read(process.pid()).ifPresent(reading -> readings.put(reading.pid(), reading));
            }
        }
        return readings;
    }

    private static Optional<Reading> read(long pid) {
        Path dir = PROC.resolve(Long.toString(pid));
        String stat;
        long rss;
        try {
            stat = Files.readString(dir.resolve("stat"), StandardCharsets.US_ASCII);
            rss = residentBytes(Files.readAllLines(dir.resolve("status"), StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException ended) {
            return Optional.empty();
        }
        long ticks = 0;
        for (long t : cpuTimes(stat)) {
            ticks += t;
        }
        Long read = null;
        Long written = null;
        try {
            Map<String, Long> io = fields(Files.readAllLines(dir.resolve("io"), StandardCharsets.US_ASCII));
            read = io.getOrDefault("read_bytes", 0L);
            written = io.getOrDefault("write_bytes", 0L) - io.getOrDefault("cancelled_write_bytes", 0L);
        } catch (IOException | RuntimeException notReadable) {
            // another user's process, without root
        }
        String[] fields = statFields(stat);
        return Optional.of(
                new Reading(pid, Long.parseLong(fields[1]), Long.parseLong(fields[19]), ticks, read, written, rss));
    }

    /** Clock ticks since the machine booted, now: the unit of a {@link Reading}'s start. */
    public static long uptimeTicks() {
        try {
            String uptime = Files.readString(PROC.resolve("uptime"), StandardCharsets.US_ASCII);
            return (long) (Double.parseDouble(uptime.substring(0, uptime.indexOf(' '))) * TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return Long.MAX_VALUE;
        }
    }

    /** utime, stime, cutime and cstime of a {@code /proc/PID/stat} line (fields 14-17; the name in parentheses may hold spaces). */
    static long[] cpuTimes(String stat) {
        String[] after = statFields(stat);
        return new long[] {
            Long.parseLong(after[11]), Long.parseLong(after[12]), Long.parseLong(after[13]), Long.parseLong(after[14])
        };
    }

    /** The fields of a {@code /proc/PID/stat} line after the name: field n is at n - 3. */
    private static String[] statFields(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    }

    /** VmRSS of {@code /proc/PID/status}, in bytes; 0 for a process without memory of its own (a zombie). */
    static long residentBytes(List<String> status) {
        return status.stream()
                .filter(line -> line.startsWith("VmRSS:"))
                .map(line -> Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024)
                .findFirst()
                .orElse(0L);
    }

    private static Map<String, Long> fields(List<String> lines) {
        Map<String, Long> fields = new LinkedHashMap<>();
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(
                        line.substring(0, colon),
                        Long.parseLong(line.substring(colon + 1).trim()));
            }
        }
        return fields;
    }
}
