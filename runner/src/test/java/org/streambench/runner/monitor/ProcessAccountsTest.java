package org.streambench.runner.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each role's CPU ticks and bytes added up process by process, through processes that end and start. */
class ProcessAccountsTest {

    private static final long RUNNER = 1;

    private static ProcessUsage.Reading process(long pid, long parent, long started, long ticks, long written) {
        return new ProcessUsage.Reading(pid, parent, started, ticks, 0L, written, 0);
    }

    @SafeVarargs
    private static Map<String, Map<Long, ProcessUsage.Reading>> roles(
            Map.Entry<String, ProcessUsage.Reading>... readings) {
        Map<String, Map<Long, ProcessUsage.Reading>> roles = new LinkedHashMap<>();
        for (Map.Entry<String, ProcessUsage.Reading> reading : readings) {
            roles.computeIfAbsent(reading.getKey(), r -> new LinkedHashMap<>())
                    .put(reading.getValue().pid(), reading.getValue());
        }
        return roles;
    }

    private static Map.Entry<String, ProcessUsage.Reading> in(String role, ProcessUsage.Reading reading) {
        return Map.entry(role, reading);
    }

    /**
     * The database server killed between two readings and started again: it keeps what it used up
     * to its last reading, its replacement counts all it used, and the runner, which collects the
     * killed server and so gets its whole CPU time added to its own, is not charged for it.
     */
    @Test
    void aKilledServerKeepsWhatItUsedItsReplacementCountsAllAndTheRunnerThatCollectedItIsNotCharged() {
        ProcessAccounts accounts = new ProcessAccounts(
                roles(
                        in("database", process(10, RUNNER, 100, 500, 4000)),
                        in("runner", process(RUNNER, 0, 0, 1000, 0))),
                1000);
        accounts.add(
                roles(
                        in("database", process(10, RUNNER, 100, 600, 5000)),
                        in("runner", process(RUNNER, 0, 0, 1010, 0))),
                1100);
        // killed after using 5 more ticks; the runner collected it (1010 + 5 of its own + 605) and started pid 20
        accounts.add(
                roles(
                        in("database", process(20, RUNNER, 1150, 30, 700)),
                        in("runner", process(RUNNER, 0, 0, 1620, 5005))),
                1200);

        ProcessAccounts.Totals database = accounts.totals().get("database");
        assertEquals(100 + 30, database.cpuTicks(), "the killed server's 100 and its replacement's 30");
        assertEquals(1000 + 700, database.writeBytes(), "bytes as CPU");
        ProcessAccounts.Totals runner = accounts.totals().get("runner");
        assertEquals(10 + 10, runner.cpuTicks(), "the runner's own, and the 5 the server used after its last reading");
        assertEquals(5, runner.writeBytes(), "what the server wrote after its last reading");
    }

    /** A server's child that ends (a PostgreSQL backend of a closed connection) is collected by the server: counted once. */
    @Test
    void aChildCollectedByItsParentInTheSameRoleIsCountedOnce() {
        ProcessAccounts accounts = new ProcessAccounts(
                roles(in("database", process(10, RUNNER, 100, 100, 0)), in("database", process(11, 10, 900, 50, 0))),
                1000);
        accounts.add(
                roles(in("database", process(10, RUNNER, 100, 102, 0)), in("database", process(11, 10, 900, 80, 0))),
                1100);
        accounts.add(roles(in("database", process(10, RUNNER, 100, 183, 0))), 1200);

        assertEquals(3 + 30, accounts.totals().get("database").cpuTicks(), "the server's 3 and its child's 30");
    }

    /** A pid used again by a process that started after the previous reading is a new process. */
    @Test
    void aPidUsedAgainIsANewProcessAndOneOlderThanThePreviousReadingCountsFromItsFirst() {
        ProcessAccounts accounts = new ProcessAccounts(roles(in("engine", process(30, RUNNER, 200, 900, 0))), 1000);
        accounts.add(
                roles(
                        in("engine", process(30, RUNNER, 1050, 40, 0)),
                        // not read before, though it ran then: what it used before this reading is not the window's
                        in("engine", process(31, RUNNER, 500, 400, 0))),
                1100);
        assertEquals(40, accounts.totals().get("engine").cpuTicks(), "the new process 30's 40; 31 from now on");
        accounts.add(
                roles(in("engine", process(30, RUNNER, 1050, 45, 0)), in("engine", process(31, RUNNER, 500, 410, 0))),
                1200);
        assertEquals(40 + 5 + 10, accounts.totals().get("engine").cpuTicks());
    }

    @Test
    void bytesThatCannotBeReadMakeTheRolesBytesUnknown() {
        ProcessAccounts accounts = new ProcessAccounts(
                roles(in("database", new ProcessUsage.Reading(10, RUNNER, 100, 5, null, null, 0))), 1000);
        accounts.add(roles(in("database", new ProcessUsage.Reading(10, RUNNER, 100, 7, null, null, 0))), 1100);
        assertEquals(2, accounts.totals().get("database").cpuTicks());
        assertNull(accounts.totals().get("database").writeBytes());
    }
}
