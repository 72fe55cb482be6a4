package org.streambench.runner.monitor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /** The processes together, each counted once; one that ended meanwhile is left out. */
    public static ProcessUsage of(Collection<ProcessHandle> processes) {
        Map<Long, ProcessHandle> distinct = new LinkedHashMap<>();
        processes.forEach(p -> distinct.putIfAbsent(p.pid(), p));
        int count = 0;
        long ticks = 0;
        long rss = 0;
        long read = 0;
        long written = 0;
        boolean ioReadable = true;
        for (long pid : distinct.keySet()) {
            Path dir = PROC.resolve(Long.toString(pid));
            long[] times;
            long processRss;
            try {
                times = cpuTimes(Files.readString(dir.resolve("stat"), StandardCharsets.US_ASCII));
                processRss = residentBytes(Files.readAllLines(dir.resolve("status"), StandardCharsets.US_ASCII));
            } catch (IOException | RuntimeException ended) {
                continue;
            }
            count++;
            for (long t : times) {
                ticks += t;
            }
            rss += processRss;
            try {
                Map<String, Long> io = fields(Files.readAllLines(dir.resolve("io"), StandardCharsets.US_ASCII));
                read += io.getOrDefault("read_bytes", 0L);
                written += io.getOrDefault("write_bytes", 0L) - io.getOrDefault("cancelled_write_bytes", 0L);
            } catch (IOException | RuntimeException notReadable) {
                ioReadable = false;
            }
        }
        return new ProcessUsage(count, ticks, ioReadable ? read : null, ioReadable ? written : null, rss);
    }

    /** utime, stime, cutime and cstime of a {@code /proc/PID/stat} line (fields 14-17; the name in parentheses may hold spaces). */
    static long[] cpuTimes(String stat) {
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // after[0] is field 3 (the state), so field n is after[n - 3]
        return new long[] {
            Long.parseLong(after[11]), Long.parseLong(after[12]), Long.parseLong(after[13]), Long.parseLong(after[14])
        };
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
