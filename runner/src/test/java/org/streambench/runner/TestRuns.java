package org.streambench.runner;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/** What the runner's tests share besides the servers: a work folder of their own, run options. */
final class TestRuns {

    private TestRuns() {}

    /** A test's body that may throw anything a test may. */
    interface TestBody {
        void run() throws Exception;
    }

    /** Runs {@code test} with the suite's work folder (local servers, monitoring) at {@code work}. */
    static void withWork(Path work, TestBody test) throws Exception {
        // loaded first: loading TestServers (a free port, inside the test) sets the work folder to its own
        Objects.requireNonNull(TestServers.WORK);
        TestServers.registerWork(work);
        String previous = System.getProperty("streambench.work");
        System.setProperty("streambench.work", work.toString());
        try {
            test.run();
        } finally {
            if (previous == null) {
                System.clearProperty("streambench.work");
            } else {
                System.setProperty("streambench.work", previous);
            }
        }
    }

    /** The run options that point a run at {@code postgres}, a server the tests started. */
    static List<String> postgresArgs(ServerState postgres) {
        return List.of(
                "--db-url",
                postgres.settings().get("url"),
                "--db-user",
                "postgres",
                "--db-password",
                postgres.settings().get("password"));
    }
}
