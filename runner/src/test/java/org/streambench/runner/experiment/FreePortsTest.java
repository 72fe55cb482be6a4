package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** A job's port is free and outside the range outgoing connections take their local ports from. */
class FreePortsTest {

    @Test
    void aJobsPortIsFreeAndBelowTheEphemeralRange() throws IOException {
        int firstEphemeral = FreePorts.firstEphemeralPort();
        assertTrue(firstEphemeral > FreePorts.LOWEST, "this machine's range starts at " + firstEphemeral);
        for (int i = 0; i < 20; i++) {
            int port = FreePorts.belowEphemeralRange("127.0.0.1").orElseThrow();
            assertTrue(port >= FreePorts.LOWEST && port < firstEphemeral, port + " of " + firstEphemeral);
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress("127.0.0.1", port)); // free: the job can take it
            }
        }
    }
}
