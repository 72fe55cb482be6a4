package org.streambench.runner.monitor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What each role's processes used since the first reading, added up from readings of every process
 * (at a window's ends and every second), not from each role's total: a process that ends (a
 * database server killed by a fault, a job's JVM replaced) takes its counts along, and its role's
 * total would fall short of an earlier one by all that process ever used. Here a process counts
 * what it used between two readings; one that started after the previous reading counts all it
 * used; one that ended counts what it used up to its last reading (less than a second is lost).
 * Linux adds an ended child's CPU time and storage bytes to its parent once the parent collects it:
 * when that parent is read (in any role: the runner collects the database server it killed), the
 * child's part counted already is taken off the parent's role.
 */
final class ProcessAccounts {

    /** A role's counts at one reading; the bytes are null once a process's could not be read (another user's, without root). */
    record Totals(long cpuTicks, Long readBytes, Long writeBytes) {}

    private static final class Sums {
        private long cpuTicks;
        private long readBytes;
        private long writeBytes;
        private boolean ioReadable = true;

        private void count(ProcessUsage.Reading now, ProcessUsage.Reading before, int sign) {
            cpuTicks += sign * (now.cpuTicks() - (before == null ? 0 : before.cpuTicks()));
            if (!hasIo(now) || (before != null && !hasIo(before))) {
                ioReadable = false;
                return;
            }
            readBytes += sign * (now.readBytes() - (before == null ? 0 : before.readBytes()));
            writeBytes += sign * (now.writeBytes() - (before == null ? 0 : before.writeBytes()));
        }

        private Totals totals() {
            return new Totals(cpuTicks, ioReadable ? readBytes : null, ioReadable ? writeBytes : null);
        }
    }

    private final Map<String, Sums> sums = new LinkedHashMap<>();
    private Map<String, Map<Long, ProcessUsage.Reading>> previous;
    private long previousUptimeTicks;

    /** From each role's first readings, taken when the machine had been up {@code uptimeTicks}. */
    ProcessAccounts(Map<String, Map<Long, ProcessUsage.Reading>> first, long uptimeTicks) {
        first.forEach((role, readings) -> {
            Sums counts = new Sums();
            counts.ioReadable = readings.values().stream().allMatch(ProcessAccounts::hasIo);
            sums.put(role, counts);
        });
        this.previous = Map.copyOf(first);
        this.previousUptimeTicks = uptimeTicks;
    }

    /** Each role's readings at a later moment, when the machine had been up {@code uptimeTicks}. */
    void add(Map<String, Map<Long, ProcessUsage.Reading>> now, long uptimeTicks) {
        now.forEach((role, readings) -> {
            Sums counts = sums.computeIfAbsent(role, r -> new Sums());
            Map<Long, ProcessUsage.Reading> before = previous.getOrDefault(role, Map.of());
            for (ProcessUsage.Reading reading : readings.values()) {
                ProcessUsage.Reading earlier = before.get(reading.pid());
                if (reading.sameProcessAs(earlier)) {
                    counts.count(reading, earlier, 1);
                } else if (reading.startTicks() >= previousUptimeTicks) {
                    counts.count(reading, null, 1);
                }
                // else older than the previous reading but not in it: counted from this reading on
            }
        });
        previous.forEach((role, readings) -> {
            for (ProcessUsage.Reading gone : readings.values()) {
                if (!gone.sameProcessAs(now.getOrDefault(role, Map.of()).get(gone.pid()))) {
                    collectedBy(gone, now)
                            .ifPresent(parentRole -> sums.get(parentRole).count(gone, null, -1));
                }
            }
        });
        previous = Map.copyOf(now);
        previousUptimeTicks = uptimeTicks;
    }

    /** Each role's counts so far. */
    Map<String, Totals> totals() {
        Map<String, Totals> totals = new LinkedHashMap<>();
        sums.forEach((role, counts) -> totals.put(role, counts.totals()));
        return totals;
    }

    /** The role of an ended process's parent, if that parent is read now: it collects the child's counts. */
    private static Optional<String> collectedBy(
            ProcessUsage.Reading ended, Map<String, Map<Long, ProcessUsage.Reading>> now) {
        for (Map.Entry<String, Map<Long, ProcessUsage.Reading>> role : now.entrySet()) {
            ProcessUsage.Reading parent = role.getValue().get(ended.parentPid());
            if (parent != null && parent.startTicks() <= ended.startTicks()) {
                return Optional.of(role.getKey());
            }
        }
        return Optional.empty();
    }

    private static boolean hasIo(ProcessUsage.Reading reading) {
        return reading.readBytes() != null && reading.writeBytes() != null;
    }
}
